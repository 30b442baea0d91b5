-- The rest of spec 000 §3: project settings, folders, sites, groups, teams, project users, surveys, files.

alter table projects
  add column logo text not null default '',
  add column is_hierarchical boolean not null default false,
  add column is_entity boolean not null default false,
  -- [{level, name, schema_id}] in level order
  add column project_hierarchy jsonb not null default '[]',
  add column project_period text not null default '',
  add column timing_column text not null default 'time_created',
  add column aggregator text not null default '',
  add column trend_series_options jsonb,
  add column date_end date,
  add column goal_count bigint not null default 0,
  add column current_collection_round_start timestamptz(3),
  add column reference_ids bigint[] not null default '{}';

create table folders (
  id bigint generated always as identity primary key,
  organization_id bigint not null,
  name text not null,
  parent_id bigint references folders (id) on delete set null,
  time_created timestamptz(3) not null default now()
);
create index folders_organization_idx on folders (organization_id);

create table sites (
  id bigint generated always as identity primary key,
  project_id bigint not null references projects (id) on delete cascade,
  name text not null,
  -- [longitude, latitude]
  geotag double precision[2],
  frontend_icon text not null default 'place',
  frontend_color text not null default '5da83d',
  date_start date,
  date_end date,
  active_flag boolean not null default true,
  is_default boolean not null default false,
  time_created timestamptz(3) not null default now()
);
create index sites_project_idx on sites (project_id);

create table groups (
  id bigint generated always as identity primary key,
  project_id bigint not null references projects (id) on delete cascade,
  site_id bigint not null references sites (id) on delete cascade,
  name text not null,
  is_default boolean not null default false,
  time_created timestamptz(3) not null default now()
);
create index groups_project_idx on groups (project_id);

create table teams (
  id bigint generated always as identity primary key,
  project_id bigint not null references projects (id) on delete cascade,
  group_id bigint not null references groups (id) on delete cascade,
  name text not null,
  is_default boolean not null default false,
  time_created timestamptz(3) not null default now()
);
create index teams_project_idx on teams (project_id);

-- Deleting a site deletes its groups and teams; the set-null keys then clear them from project users.
create table project_users (
  id bigint generated always as identity primary key,
  project_id bigint not null references projects (id) on delete cascade,
  user_id bigint not null,
  site_id bigint references sites (id) on delete set null,
  group_id bigint references groups (id) on delete set null,
  team_id bigint references teams (id) on delete set null,
  project_owner boolean not null default false,
  project_admin boolean not null default false,
  researcher boolean not null default false,
  collector boolean not null default false,
  data_manager boolean not null default false,
  read_sites bigint[] not null default '{}',
  time_created timestamptz(3) not null default now(),
  unique (project_id, user_id)
);
create index project_users_user_idx on project_users (user_id);

create table surveys (
  id bigint generated always as identity primary key,
  project_id bigint not null references projects (id) on delete cascade,
  token text not null unique,
  expiry_date timestamptz(3) not null,
  created_by bigint not null,
  time_created timestamptz(3) not null default now()
);
create index surveys_project_idx on surveys (project_id);

create table project_files (
  file_id uuid primary key,
  organization_id bigint not null,
  project_id bigint references projects (id) on delete cascade,
  object_key text not null,
  filename text not null,
  content_type text not null,
  size bigint not null,
  purpose text not null check (purpose in ('upload', 'logo')),
  uploaded_by bigint not null,
  time_created timestamptz(3) not null default now()
);
