-- A deleted project's purge finds its media and outbox rows by project (they were found by response only).
create index media_project_idx on media (project_id);
create index response_outbox_project_idx on response_outbox (project_id);
