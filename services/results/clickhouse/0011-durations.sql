-- The distribution of durations of completed responses (docs/results.md "Aggregates"): the performance view's average
-- and median seconds from time_created to time_completed, per site, collector, group or team, from the aggregates.
--
-- An exact median needs every duration: the scan takes quantileExactInclusive(0.5) of whole milliseconds, so this
-- table keeps each whole millisecond (coarser buckets would change medians: not exact). Durations in milliseconds
-- rarely repeat, so it holds about one row per completed response, narrow (ten numbers) and without versions: it is
-- read by the dimensions the views group by, for one page of groups, without FINAL. Only the responses that have a
-- duration are counted (not deleted, completed, time_completed set and not before time_created: the scan's rule), so
-- no query filters deleted or completed here. Rows are signed as in the other aggregates (state_changes: -1 for the
-- state retracted, +1 for the new one); queries sum `n` per (group, ms) and keep what is above zero.
CREATE TABLE IF NOT EXISTS {db}.agg_durations (
  project_id UInt64,
  schema_id UInt64,
  site_id UInt64,
  user_id UInt64,
  group_id UInt64,
  team_id UInt64,
  d_created Date32,
  ms Int64,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, site_id, user_id, group_id, team_id, d_created, ms);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_durations_mv TO {db}.agg_durations AS
SELECT project_id, schema_id, site_id, user_id, group_id, team_id, d_created,
       dateDiff('millisecond', time_created, assumeNotNull(time_completed)) AS ms, sum(sign) AS n
FROM {db}.state_changes
WHERE deleted = 0 AND completed = 1 AND time_completed IS NOT NULL AND time_completed >= time_created
GROUP BY project_id, schema_id, site_id, user_id, group_id, team_id, d_created, ms;

-- The states counted before this table existed: each counted once, from response_state (the newest version counted
-- per response). The results writer applies its migrations before it ingests, so no change is counted twice (with a
-- ClickHouse server, upgrade the writer first: a writer of an older version ingesting meanwhile could count a change
-- both here and through the view; `pnpm fieldwork results rebuild` recounts everything).
INSERT INTO {db}.agg_durations
SELECT project_id, schema_id, site_id, user_id, group_id, team_id, d_created,
       dateDiff('millisecond', time_created, assumeNotNull(time_completed)) AS ms, count() AS n
FROM {db}.response_state FINAL
WHERE deleted = 0 AND completed = 1 AND time_completed IS NOT NULL AND time_completed >= time_created
GROUP BY project_id, schema_id, site_id, user_id, group_id, team_id, d_created, ms;
