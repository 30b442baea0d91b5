-- Sign-in throttling that cannot be turned against people (issue 30 item 9, docs/security.md):
-- a device that signed in to an account holds a token (its SHA-256 here) that lets it past the account's slow-down;
-- a counter's fixed window (started_at) bounds how long failures from one busy address are remembered.
create table known_devices (
  token_hash bytea primary key,
  user_id bigint not null references users (id) on delete cascade,
  created_at timestamptz(3) not null default now(),
  last_used_at timestamptz(3) not null default now()
);
create index known_devices_user_idx on known_devices (user_id);
create index known_devices_used_idx on known_devices (last_used_at);
alter table login_attempts add column started_at timestamptz(3);
