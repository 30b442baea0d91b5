-- Login attempts are counted before the password check, per account (every login name of it together: key
-- a:<user id>, or n:<name> when no account has it), per account from an address it signed in from before
-- (a:<user id>@<address>), and per client address (ip:<address>); past an allowance they are slowed, never locked out
-- (domain/login-throttle.ts). The per-username lockout counters of 0001 go.
drop table login_attempts;
create table login_attempts (
  key text primary key,
  attempts int not null default 0,
  last_at timestamptz(3)
);
create index login_attempts_last_idx on login_attempts (last_at);
