-- Revocations to publish to the revocation list (NATS KV, watched by every gateway), written in the transaction that
-- revokes: a session, an API key, or a user's share links issued before `at`. The relay publishes and marks them
-- (events/revocation-relay.ts), so a revocation reaches the gateways even if NATS was away at that moment.
create table revocation_outbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('session', 'key', 'user')),
  ref text not null,
  at timestamptz(3) not null default now(),
  published_at timestamptz(3)
);
create index revocation_outbox_unpublished_idx on revocation_outbox (id) where published_at is null;
