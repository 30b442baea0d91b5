-- Tracking (spec 001 §2 filter sets, issue 20): each site's target, the responses it is expected to collect
-- (0: none), as the project's own goal_count is the project's.
alter table sites add column goal_count bigint not null default 0;
