-- Sampler schemas: one per project, or one per level of a hierarchical project (spec 001 §3).
create table sampler_schemas (
  id bigint generated always as identity primary key,
  project_id bigint not null,
  name text not null default '',
  level int not null default 0,
  version text not null default '1.0',
  primary_language text not null default 'en',
  body jsonb not null,
  deleted boolean not null default false,
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now()
);
create index sampler_schemas_project_idx on sampler_schemas (project_id) where not deleted;
