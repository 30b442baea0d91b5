-- Collection links of two kinds (issue 19): anonymous links (collect/anonymous/{token}), which may never expire and
-- may ask respondents to log in, and surveys (collect/survey/{token}), which always expire. Each may carry a name.
alter table surveys
  add column kind text not null default 'survey' check (kind in ('anonymous', 'survey')),
  add column name text not null default '',
  add column proceed_unauthenticated boolean not null default true,
  alter column expiry_date drop not null,
  add constraint surveys_expiry_check check (kind = 'anonymous' or expiry_date is not null);
