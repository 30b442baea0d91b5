-- Every save of a schema is a revision; the editor names the revision it started from.
alter table sampler_schemas add column revision int not null default 1;

create table schema_revisions (
  schema_id bigint not null references sampler_schemas (id) on delete cascade,
  revision int not null,
  body jsonb not null,
  saved_by bigint not null,
  time_saved timestamptz(3) not null default now(),
  primary key (schema_id, revision)
);
