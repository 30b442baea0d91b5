-- The outbox by response: the latest event of each response is read by a restore and a republish, and published
-- events that a newer one supersedes are pruned after OUTBOX_RETENTION_HOURS (the outbox stays about one row per
-- response instead of one per change).
create index response_outbox_response_idx on response_outbox (response_id, id);
