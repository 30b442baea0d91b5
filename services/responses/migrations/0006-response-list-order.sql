-- Response lists page newest first (spec 001 §9 sort options): the first page of a project with millions of
-- responses reads only its rows.
create index responses_project_updated_idx on responses (project_id, time_updated desc, id desc) where not deleted;
create index responses_project_created_idx on responses (project_id, time_created desc, id desc) where not deleted;
