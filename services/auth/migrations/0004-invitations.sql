-- Adding an account that already exists to a workspace is an invitation its owner accepts (issue 18): until then the
-- membership stays inactive and records who invited, and when. Accepting activates it; declining or removing
-- clears the invitation.
alter table organization_users
  add column invited_at timestamptz(3),
  add column invited_by bigint references users (id) on delete set null;
create index organization_users_invited_idx on organization_users (user_id) where invited_at is not null;
