-- Sign-in through an identity provider (OpenID Connect, issue 19). An account is linked to a provider's subject
-- the first time it signs in there; later sign-ins find it by (provider, subject) whatever its email becomes.
create table user_identities (
  provider text not null,
  subject text not null,
  user_id bigint not null references users (id) on delete cascade,
  email text not null default '',
  time_created timestamptz(3) not null default now(),
  last_used timestamptz(3),
  primary key (provider, subject)
);
create index user_identities_user_idx on user_identities (user_id);

-- One authorization request in flight: the state sent to the provider, the nonce its ID token must carry and the
-- S256 challenge of the browser's code verifier. Used once; expired ones are pruned.
create table oidc_flows (
  state text primary key,
  provider text not null,
  nonce text not null,
  code_challenge text not null,
  expires_at timestamptz(3) not null,
  used_at timestamptz(3)
);
create index oidc_flows_expires_idx on oidc_flows (expires_at);
