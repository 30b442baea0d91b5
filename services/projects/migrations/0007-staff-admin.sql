-- The staff admin role of spec 000 §6 (screens home and staff), and project user listings paged on the server
-- (issue 19): a page of a project's users is read in id order.
alter table project_users add column staff_admin boolean not null default false;
create index project_users_project_id_idx on project_users (project_id, id);
