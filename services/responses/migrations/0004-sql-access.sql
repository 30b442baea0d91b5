-- SQL access for BI tools (spec 001 §7 Import): the read-only role given for a project. Its password is never kept.
create table sql_access (
  project_id bigint primary key,
  role_name text not null unique,
  view_name text not null,
  created_by bigint not null,
  time_created timestamptz(3) not null default now()
);
