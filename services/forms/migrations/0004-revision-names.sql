-- Earlier versions are listed by name: a revision keeps the form's name as it was saved (null: saved before this).
alter table schema_revisions add column name text;
