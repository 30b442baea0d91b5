-- Import jobs (spec 001 §7 Import) and bulk user uploads (spec 000) on the same queue as exports; per-profile exports.
alter table jobs drop constraint jobs_kind_check;
alter table jobs add constraint jobs_kind_check
  check (kind in ('named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel', 'import_responses', 'import_users'));
alter table jobs
  add column profile text not null default '',
  add column params jsonb not null default '{}',
  add column rows_failed bigint not null default 0,
  add column report_key text,
  add column result jsonb not null default '{}';
