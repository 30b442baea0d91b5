-- Responses as uploaded (spec 001 §3 Response), the outbox to JetStream (docs/architecture.md), and media.
alter table responses
  add column version int not null default 1,
  add column email text not null default '',
  add column anonymous boolean not null default false,
  add column locked boolean not null default false,
  add column is_valid boolean not null default false,
  add column is_marker boolean not null default false,
  add column archived boolean not null default false,
  add column parent_id text,
  add column ancestors text[] not null default '{}',
  add column response_referenced_id text,
  add column geotag jsonb,
  add column geotag_history jsonb not null default '[]',
  add column lookup_key text,
  add column lookup_answers jsonb not null default '{}',
  add column display_name text not null default '',
  add column schema_level int not null default 0;

-- A longitudinal project's records are unique by their primary-key answer.
create unique index responses_lookup_key_idx on responses (project_id, schema_id, lookup_key) where lookup_key is not null and not deleted;
create index responses_project_id_idx on responses (project_id, id);
create index responses_parent_idx on responses (parent_id) where parent_id is not null;

-- Every accepted change, written in the same transaction and published afterwards (Nats-Msg-Id response_id:version).
create table response_outbox (
  id bigint generated always as identity primary key,
  response_id text not null,
  project_id bigint not null,
  version int not null,
  payload jsonb not null,
  created_at timestamptz(3) not null default now(),
  published_at timestamptz(3),
  attempts int not null default 0
);
create index response_outbox_unpublished_idx on response_outbox (id) where published_at is null;

create table media (
  media_id uuid primary key,
  response_id text not null,
  project_id bigint not null,
  kind text not null check (kind in ('image', 'signature')),
  object_key text not null unique,
  filename text not null,
  content_type text not null,
  declared_size bigint not null,
  size bigint,
  thumbnail_key text,
  status text not null default 'pending' check (status in ('pending', 'uploaded')),
  created_by bigint,
  created_at timestamptz(3) not null default now(),
  uploaded_at timestamptz(3)
);
create index media_response_idx on media (response_id);
