-- Collection links can be revoked, and filed under one site of their project (issue 18).
alter table surveys
  add column revoked_at timestamptz(3),
  add column revoked_by bigint,
  -- A link of a deleted site goes with it.
  add column site_id bigint references sites (id) on delete cascade;
