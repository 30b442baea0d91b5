-- Projects (spec 000 §3 Project). Sites, groups, teams, folders and project users follow with their issue.
create table projects (
  id bigint generated always as identity primary key,
  organization_id bigint not null,
  name text not null,
  description text not null default '',
  project_state char(1) not null default 'P' check (project_state in ('P', 'O', 'G', 'F', 'D')),
  project_type char(1) not null default 'S' check (project_type in ('S', 'T', 'L')),
  frontend_color text not null default '5da83d',
  frontend_icon text not null default 'place',
  -- [longitude, latitude], as GeoJSON orders them
  geotag double precision[2],
  folder_id bigint,
  created_by bigint not null,
  total_responses bigint not null default 0,
  last_response timestamptz(3),
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now()
);
create index projects_organization_idx on projects (organization_id) where project_state <> 'D';
