-- A deleted project's purge (docs/operations.md "Purging a deleted project"): asked by the workspace owner, run by
-- the purge job in batches, kept after the project row is gone as the record of what was removed.
create table project_purges (
  project_id bigint primary key,
  organization_id bigint not null,
  name text not null,
  requested_by bigint not null,
  state text not null default 'running' check (state in ('running', 'done', 'failed')),
  -- What the confirmation showed (counts by kind before the purge), then what went.
  counts jsonb not null default '{}',
  removed jsonb not null default '{}',
  attempts int not null default 0,
  error text not null default '',
  lease_until timestamptz(3),
  requested_at timestamptz(3) not null default now(),
  finished_at timestamptz(3)
);
create index project_purges_running_idx on project_purges (lease_until) where state = 'running';
create index project_purges_org_idx on project_purges (organization_id);
