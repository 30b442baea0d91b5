-- Accounts, sessions, workspaces and workspace users (spec 000 §3 User, Workspace, Workspace user).

create table users (
  id bigint generated always as identity primary key,
  username text not null,
  email text not null,
  first_name text not null default '',
  last_name text not null default '',
  -- argon2id PHC string; null until the user sets a password from a mailed link.
  password_hash text,
  is_staff boolean not null default false,
  is_superuser boolean not null default false,
  is_mobilemanager boolean not null default false,
  is_active boolean not null default true,
  agreed_terms text not null default '',
  agreed_privacy text not null default '',
  lifetime_datapoints bigint not null default 0,
  lifetime_hours bigint not null default 0,
  current_organization_id bigint,
  last_login timestamptz(3),
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now()
);
create unique index users_username_key on users (username);
create unique index users_email_key on users (lower(email));

create table organizations (
  id bigint generated always as identity primary key,
  name text not null,
  description text not null default '',
  address text not null default '',
  flagged_features text[] not null default '{}',
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now()
);

create table organization_users (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  owner boolean not null default false,
  user_admin boolean not null default false,
  project_admin boolean not null default false,
  billing_admin boolean not null default false,
  is_active boolean not null default true,
  time_created timestamptz(3) not null default now(),
  unique (organization_id, user_id)
);
create index organization_users_user_idx on organization_users (user_id);

alter table users add constraint users_current_organization_fk
  foreign key (current_organization_id) references organizations (id) on delete set null;

-- A session is one login; its refresh tokens rotate within it. Revoking the session kills them all.
create table sessions (
  id uuid primary key,
  user_id bigint not null references users (id) on delete cascade,
  client_ip text not null default '',
  created_at timestamptz(3) not null default now(),
  last_refreshed_at timestamptz(3) not null default now(),
  revoked_at timestamptz(3)
);
create index sessions_user_idx on sessions (user_id);

-- Refresh tokens are random; only their SHA-256 is stored.
create table refresh_tokens (
  token_hash bytea primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  issued_at timestamptz(3) not null default now(),
  expires_at timestamptz(3) not null,
  used_at timestamptz(3)
);
create index refresh_tokens_session_idx on refresh_tokens (session_id);

-- Single-use nonces of password reset and set-password links; only their SHA-256 is stored.
create table password_nonces (
  nonce_hash bytea primary key,
  user_id bigint not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('reset', 'set')),
  created_at timestamptz(3) not null default now(),
  expires_at timestamptz(3) not null,
  used_at timestamptz(3)
);
create index password_nonces_user_idx on password_nonces (user_id);

-- Failed logins per username, for slow-down and lockout.
create table login_attempts (
  username text primary key,
  failures int not null default 0,
  first_failure_at timestamptz(3) not null default now(),
  last_failure_at timestamptz(3) not null default now(),
  locked_until timestamptz(3)
);

create table invite_requests (
  id bigint generated always as identity primary key,
  email text not null,
  name text not null default '',
  organization text not null default '',
  time_created timestamptz(3) not null default now()
);

-- Mail is written here in the transaction that causes it and sent by the mail relay afterwards.
create table mail_outbox (
  id bigint generated always as identity primary key,
  to_address text not null,
  subject text not null,
  body text not null,
  created_at timestamptz(3) not null default now(),
  sent_at timestamptz(3),
  attempts int not null default 0,
  last_error text
);
create index mail_outbox_unsent_idx on mail_outbox (id) where sent_at is null;
