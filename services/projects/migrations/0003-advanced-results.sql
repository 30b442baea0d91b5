-- Advanced results (spec 001 §3 Advanced result): a formula over aggregates of a project's answers, with thresholds.
create table advanced_results (
  id bigint generated always as identity primary key,
  project_id bigint not null references projects (id) on delete cascade,
  name text not null,
  description text not null default '',
  threshold_value_upper double precision,
  threshold_value_lower double precision,
  formula text not null,
  editor_state jsonb not null default '{}',
  deleted boolean not null default false,
  show_on_project_summary boolean not null default false,
  show_on_site_summary boolean not null default false,
  display_type text not null default 'number',
  edit_mode boolean not null default false,
  created_by bigint not null,
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now()
);
create index advanced_results_project_idx on advanced_results (project_id) where not deleted;
