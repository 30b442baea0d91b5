-- Rollups of the cube (docs/results.md "Aggregates"): the same signed counts per value with fewer dimensions, so that
-- the most common requests read rows that grow with sites and months, not with collectors and days. The planner picks
-- the smallest table that holds what a request filters and compares by:
--   agg_values  nothing (unfiltered results)
--   agg_sites   site, group, team (filters and comparisons by them)
--   agg_months  site, group, team and the month created (whole months of time_created; periods of a month or longer)
--   agg_cube    everything (collectors, days, the other timing columns, a caller's scope)
-- Each also counts the responses themselves, as item 0 with k = 9 (one row per response state), so that a level's
-- count is read from the same small table as its statistics. agg_words_months does for the words of open questions
-- what agg_months does for values.
CREATE TABLE IF NOT EXISTS {db}.agg_sites (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  k UInt8,
  v Float64,
  deleted UInt8,
  completed UInt8,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, k, deleted, completed, site_id, group_id, team_id, v);

-- d_created is the first day of the month created (so that a range of whole months reads the same condition here as
-- on the cube's days).
CREATE TABLE IF NOT EXISTS {db}.agg_months (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  k UInt8,
  v Float64,
  deleted UInt8,
  completed UInt8,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  d_created Date32,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, k, deleted, completed, site_id, d_created, group_id, team_id, v);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_sites_mv TO {db}.agg_sites AS
SELECT project_id, schema_id, c.1 AS item_id, c.2 AS k, c.3 AS v, deleted, completed, site_id, group_id, team_id,
       sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayConcat(
  [(toUInt32(0), toUInt8(9), toFloat64(0))],
  arrayMap(x -> (x.1, toUInt8(0), toFloat64(0)), arrayFilter(x -> x.2 IS NULL AND empty(x.3) AND x.4 IS NULL, arrayZip(a_item, a_num, a_choices, a_date))),
  arrayMap(x -> (x.1, toUInt8(1), assumeNotNull(x.2)), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_num))),
  arrayFlatten(arrayMap((i, cs) -> arrayMap(ch -> (i, toUInt8(2), toFloat64(ch)), if(empty(cs), cs, arrayPushFront(cs, toUInt32(4294967295)))), a_item, a_choices)),
  arrayMap(x -> (x.1, toUInt8(3), toFloat64(toInt32(assumeNotNull(x.2)))), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_date)))
) AS c
GROUP BY project_id, schema_id, item_id, k, v, deleted, completed, site_id, group_id, team_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_months_mv TO {db}.agg_months AS
SELECT project_id, schema_id, c.1 AS item_id, c.2 AS k, c.3 AS v, deleted, completed, site_id, group_id, team_id,
       toStartOfMonth(d_created) AS d_created, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayConcat(
  [(toUInt32(0), toUInt8(9), toFloat64(0))],
  arrayMap(x -> (x.1, toUInt8(0), toFloat64(0)), arrayFilter(x -> x.2 IS NULL AND empty(x.3) AND x.4 IS NULL, arrayZip(a_item, a_num, a_choices, a_date))),
  arrayMap(x -> (x.1, toUInt8(1), assumeNotNull(x.2)), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_num))),
  arrayFlatten(arrayMap((i, cs) -> arrayMap(ch -> (i, toUInt8(2), toFloat64(ch)), if(empty(cs), cs, arrayPushFront(cs, toUInt32(4294967295)))), a_item, a_choices)),
  arrayMap(x -> (x.1, toUInt8(3), toFloat64(toInt32(assumeNotNull(x.2)))), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_date)))
) AS c
GROUP BY project_id, schema_id, item_id, k, v, deleted, completed, site_id, group_id, team_id, d_created;

-- Answers per question and word (as agg_words) per site, group, team and month created: the words of open questions
-- under the rollups' filters, counted over every answer.
CREATE TABLE IF NOT EXISTS {db}.agg_words_months (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  deleted UInt8,
  completed UInt8,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  d_created Date32,
  word String,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, deleted, completed, site_id, d_created, group_id, team_id, word);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_words_months_mv TO {db}.agg_words_months AS
SELECT project_id, schema_id, w.1 AS item_id, deleted, completed, site_id, group_id, team_id,
       toStartOfMonth(d_created) AS d_created, w.2 AS word, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayFlatten(arrayMap((i, t) -> arrayMap(x -> (i, x), arrayDistinct(tokens(lowerUTF8(t)))), a_item, a_text)) AS w
GROUP BY project_id, schema_id, item_id, deleted, completed, site_id, group_id, team_id, d_created, word;

-- Projects counted before the rollups existed are counted again by the results writer at its start (their counted
-- states made again and every state counted once, the backfill of docs/results.md), so the rollups are exact from the
-- first request they serve; until then the project's requests scan.
INSERT INTO {db}.agg_projects (project_id, tz, ready) SELECT project_id, tz, 0 FROM {db}.agg_projects FINAL WHERE ready = 1;
