-- The exports schema; its tables arrive with the issue that builds this domain.
comment on schema exports is 'Export and import jobs (spec 001 section 7 Exports, Import)';
