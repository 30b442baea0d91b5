-- API keys (shown once, stored hashed, looked up by prefix) and integrations (spec 000 §3 Integration, API key).
create table api_keys (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  name text not null,
  prefix text not null unique,
  key_hash bytea not null,
  created_by bigint not null references users (id) on delete cascade,
  created_at timestamptz(3) not null default now(),
  revoked_at timestamptz(3),
  last_used_at timestamptz(3)
);
create index api_keys_organization_idx on api_keys (organization_id);

create table integrations (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  token uuid not null unique,
  integration_type text not null check (integration_type in ('crm')),
  verified boolean not null default false,
  projects bigint[] not null default '{}',
  time_created timestamptz(3) not null default now(),
  time_updated timestamptz(3) not null default now()
);
create index integrations_organization_idx on integrations (organization_id);
