-- Versions are listed with their question count without reading their bodies (a form may be 16 MiB); older
-- revisions are pruned at each save beyond the newest few, so background saves cannot grow a form's history for ever.
alter table schema_revisions add column questions int;
update schema_revisions set questions = (
  select count(*) from jsonb_each(body -> 'entities' -> 'items') i
  where coalesce((i.value ->> 'deleted')::boolean, false) = false and i.value ->> 'type' not in ('instruction', 'empty'));
alter table schema_revisions alter column questions set not null;
