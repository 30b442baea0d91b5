-- An account someone else makes is an invitation its address confirms (issue 30 item 2): the link mailed with it
-- sets the person's own password and accepts the invitation of the workspace it was mailed for.
alter table password_nonces add column organization_id bigint references organizations (id) on delete cascade;
