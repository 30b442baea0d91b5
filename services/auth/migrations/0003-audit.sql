-- The audit log of security-relevant events, written by every service through RecordAudit and read by workspace
-- owners. Never a secret in details; kept until the operator prunes it.
create table audit_events (
  id bigint generated always as identity primary key,
  time timestamptz(3) not null default now(),
  organization_id bigint,
  actor_user_id bigint,
  event text not null,
  target text not null default '',
  ip text not null default '',
  details jsonb not null default '{}'
);
create index audit_events_org_idx on audit_events (organization_id, id desc);
