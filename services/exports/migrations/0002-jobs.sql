-- Export jobs (spec 001 §7 Exports): one row per requested file, its progress and where the file is.
create table jobs (
  id uuid primary key,
  project_id bigint not null,
  schema_id bigint not null default 0,
  kind text not null check (kind in ('named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel')),
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed', 'cancelled')),
  rows_done bigint not null default 0,
  rows_total bigint not null default 0,
  object_key text,
  size bigint not null default 0,
  error text not null default '',
  attempts int not null default 0,
  created_by bigint not null,
  lang text not null default 'en',
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now(),
  expires_at timestamptz(3)
);
create index jobs_project_idx on jobs (project_id, time_created desc);
create index jobs_expiry_idx on jobs (expires_at) where status = 'done';
