-- Responses: the system of record (spec 001 §3 Response). The core columns; upload, versions and the outbox to
-- JetStream are added by the responses issue.
create table responses (
  id bigint generated always as identity primary key,
  response_id text not null unique,
  project_id bigint not null,
  schema_id bigint not null,
  user_id bigint,
  site_id bigint,
  group_id bigint,
  team_id bigint,
  device_id text not null default '',
  completed boolean not null default false,
  deleted boolean not null default false,
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now(),
  time_completed timestamptz(3),
  time_uploaded timestamptz(3) not null default now(),
  data jsonb not null default '{}'
);
create index responses_project_idx on responses (project_id) where not deleted;
