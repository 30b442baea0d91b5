-- Exact pre-aggregates of the answers (docs/results.md "Aggregates"): results cost depends on what is asked, not on
-- how many responses a project has.
--
-- response_state holds, per response, the newest version that the aggregates count (its answers as typed arrays and
-- the days of its timing columns in the project's results time zone). For each change, ingestion inserts into
-- state_changes the state the aggregates count now with sign -1 and the new state with sign +1; the materialized
-- views below turn those rows into signed counts, which the SummingMergeTree tables add up. A version that is not
-- newer than the counted one (a redelivery, or an older version arriving late) changes nothing. Rows that add up to
-- zero disappear in ClickHouse's own merges. Queries sum `n` and keep what is not zero; no FINAL.
CREATE TABLE IF NOT EXISTS {db}.response_state (
  project_id UInt64,
  schema_id UInt64,
  response_id String,
  version UInt32,
  user_id UInt64,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  completed UInt8,
  deleted UInt8,
  time_created DateTime64(3, 'UTC'),
  time_updated DateTime64(3, 'UTC'),
  time_completed Nullable(DateTime64(3, 'UTC')),
  time_uploaded DateTime64(3, 'UTC'),
  d_created Date32,
  d_updated Date32,
  d_completed Date32,
  d_uploaded Date32,
  a_item Array(UInt32),
  a_num Array(Nullable(Float64)),
  a_choices Array(Array(UInt32)),
  a_date Array(Nullable(Date32)),
  a_text Array(String)
) ENGINE = ReplacingMergeTree(version)
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, response_id)
SETTINGS index_granularity = 1024;

-- What the aggregates count changes: one row per response state counted (+1) or uncounted (-1). Nothing is stored
-- here; the materialized views read each insert.
CREATE TABLE IF NOT EXISTS {db}.state_changes (
  project_id UInt64,
  schema_id UInt64,
  response_id String,
  version UInt32,
  user_id UInt64,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  completed UInt8,
  deleted UInt8,
  time_created DateTime64(3, 'UTC'),
  time_updated DateTime64(3, 'UTC'),
  time_completed Nullable(DateTime64(3, 'UTC')),
  time_uploaded DateTime64(3, 'UTC'),
  d_created Date32,
  d_updated Date32,
  d_completed Date32,
  d_uploaded Date32,
  a_item Array(UInt32),
  a_num Array(Nullable(Float64)),
  a_choices Array(Array(UInt32)),
  a_date Array(Nullable(Date32)),
  a_text Array(String),
  sign Int8
) ENGINE = Null;

-- Per (item, kind, value): k = 1 a number (v its value), 2 a choice (v its id; 4294967295 counts the answers that
-- hold at least one choice), 3 a date (v its day number), 0 any other answer (text, point, no choice). An item's
-- answers are the sum over k 0, 1, 3 and the choice 4294967295 of k 2. Unfiltered results.
-- Size: the distinct values of each question.
CREATE TABLE IF NOT EXISTS {db}.agg_values (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  k UInt8,
  v Float64,
  deleted UInt8,
  completed UInt8,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, k, deleted, completed, v);

-- The same counts per site, group, team, collector and day of each timing column (d_completed 1900-01-01: not
-- completed). Filters by those, whole-day ranges, comparisons by them and by periods of a day or longer.
-- Size: the distinct (value, site, collector, day) of each question.
CREATE TABLE IF NOT EXISTS {db}.agg_cube (
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
  user_id UInt64,
  d_created Date32,
  d_updated Date32,
  d_completed Date32,
  d_uploaded Date32,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, k, deleted, completed, site_id, d_created, user_id, group_id, team_id, d_updated, d_completed, d_uploaded, v);

-- Responses per site, group, team, collector and days: a level's count and the groups of a comparison.
CREATE TABLE IF NOT EXISTS {db}.agg_responses (
  project_id UInt64,
  schema_id UInt64,
  deleted UInt8,
  completed UInt8,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  user_id UInt64,
  d_created Date32,
  d_updated Date32,
  d_completed Date32,
  d_uploaded Date32,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, deleted, completed, site_id, d_created, user_id, group_id, team_id, d_updated, d_completed, d_uploaded);

-- Per (item, word): the answers whose lower-cased text holds the word (ClickHouse's tokens(), once per answer).
CREATE TABLE IF NOT EXISTS {db}.agg_words (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  deleted UInt8,
  completed UInt8,
  word String,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, deleted, completed, word);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_values_mv TO {db}.agg_values AS
SELECT project_id, schema_id, c.1 AS item_id, c.2 AS k, c.3 AS v, deleted, completed, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayConcat(
  arrayMap(x -> (x.1, toUInt8(0), toFloat64(0)), arrayFilter(x -> x.2 IS NULL AND empty(x.3) AND x.4 IS NULL, arrayZip(a_item, a_num, a_choices, a_date))),
  arrayMap(x -> (x.1, toUInt8(1), assumeNotNull(x.2)), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_num))),
  arrayFlatten(arrayMap((i, cs) -> arrayMap(ch -> (i, toUInt8(2), toFloat64(ch)), if(empty(cs), cs, arrayPushFront(cs, toUInt32(4294967295)))), a_item, a_choices)),
  arrayMap(x -> (x.1, toUInt8(3), toFloat64(toInt32(assumeNotNull(x.2)))), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_date)))
) AS c
GROUP BY project_id, schema_id, item_id, k, v, deleted, completed;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_cube_mv TO {db}.agg_cube AS
SELECT project_id, schema_id, c.1 AS item_id, c.2 AS k, c.3 AS v, deleted, completed, site_id, group_id, team_id,
       user_id, d_created, d_updated, d_completed, d_uploaded, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayConcat(
  arrayMap(x -> (x.1, toUInt8(0), toFloat64(0)), arrayFilter(x -> x.2 IS NULL AND empty(x.3) AND x.4 IS NULL, arrayZip(a_item, a_num, a_choices, a_date))),
  arrayMap(x -> (x.1, toUInt8(1), assumeNotNull(x.2)), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_num))),
  arrayFlatten(arrayMap((i, cs) -> arrayMap(ch -> (i, toUInt8(2), toFloat64(ch)), if(empty(cs), cs, arrayPushFront(cs, toUInt32(4294967295)))), a_item, a_choices)),
  arrayMap(x -> (x.1, toUInt8(3), toFloat64(toInt32(assumeNotNull(x.2)))), arrayFilter(x -> x.2 IS NOT NULL, arrayZip(a_item, a_date)))
) AS c
GROUP BY project_id, schema_id, item_id, k, v, deleted, completed, site_id, group_id, team_id, user_id, d_created,
         d_updated, d_completed, d_uploaded;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_responses_mv TO {db}.agg_responses AS
SELECT project_id, schema_id, deleted, completed, site_id, group_id, team_id, user_id, d_created, d_updated,
       d_completed, d_uploaded, sum(sign) AS n
FROM {db}.state_changes
GROUP BY project_id, schema_id, deleted, completed, site_id, group_id, team_id, user_id, d_created, d_updated,
         d_completed, d_uploaded;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_words_mv TO {db}.agg_words AS
SELECT project_id, schema_id, w.1 AS item_id, deleted, completed, w.2 AS word, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayFlatten(arrayMap((i, t) -> arrayMap(x -> (i, x), arrayDistinct(tokens(lowerUTF8(t)))), a_item, a_text)) AS w
GROUP BY project_id, schema_id, item_id, deleted, completed, word;

-- Per project: the time zone of the aggregates' days, and whether they are complete (ready = 1). A project whose
-- aggregates are being built or rebuilt (ready = 0) is answered from the scans. `at` orders the rows of a project.
CREATE TABLE IF NOT EXISTS {db}.agg_projects (
  project_id UInt64,
  tz String,
  ready UInt8,
  at DateTime64(6, 'UTC') DEFAULT now64(6)
) ENGINE = ReplacingMergeTree(at)
ORDER BY project_id;

-- Batches being folded into the aggregates: a 'begin' row (phase 0) before the first insert of a batch, an 'end' row
-- (phase 1) after the last. A batch begun and never ended (a crash, a failed insert) marks its projects for a
-- recount from response_state before ingestion goes on.
CREATE TABLE IF NOT EXISTS {db}.agg_journal (
  batch String,
  phase UInt8,
  projects Array(UInt64),
  at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = MergeTree
ORDER BY (batch, phase)
TTL toDateTime(at) + INTERVAL 7 DAY;

-- Responses per exact time of each timing column (col: 0 time_created, 1 time_updated, 2 time_completed when set,
-- 3 time_uploaded) and the cube's dimensions, sorted by time: a level's first and last are read in order.
CREATE TABLE IF NOT EXISTS {db}.agg_times (
  project_id UInt64,
  schema_id UInt64,
  col UInt8,
  t DateTime64(3, 'UTC'),
  deleted UInt8,
  completed UInt8,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  user_id UInt64,
  d_created Date32,
  d_updated Date32,
  d_completed Date32,
  d_uploaded Date32,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, col, t, deleted, completed, site_id, user_id, group_id, team_id, d_created, d_updated, d_completed, d_uploaded);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_times_mv TO {db}.agg_times AS
SELECT project_id, schema_id, x.1 AS col, x.2 AS t, deleted, completed, site_id, group_id, team_id, user_id,
       d_created, d_updated, d_completed, d_uploaded, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayConcat([(toUInt8(0), time_created), (toUInt8(1), time_updated), (toUInt8(3), time_uploaded)],
                       if(time_completed IS NULL, [], [(toUInt8(2), assumeNotNull(time_completed))])) AS x
GROUP BY project_id, schema_id, col, t, deleted, completed, site_id, group_id, team_id, user_id, d_created,
         d_updated, d_completed, d_uploaded;

-- Each non-empty text answer (counted +1, retracted -1) by question and time created, newest read first: the latest
-- answers of text questions, filtered like the cube, read in order of time from the end.
CREATE TABLE IF NOT EXISTS {db}.agg_texts (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  t DateTime64(3, 'UTC'),
  response_id String,
  text String,
  deleted UInt8,
  completed UInt8,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  user_id UInt64,
  d_created Date32,
  d_updated Date32,
  d_completed Date32,
  d_uploaded Date32,
  n Int64
) ENGINE = SummingMergeTree
PARTITION BY intDiv(project_id, 1000)
ORDER BY (project_id, schema_id, item_id, t, response_id, text, deleted, completed, site_id, user_id, group_id, team_id, d_created, d_updated, d_completed, d_uploaded);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.agg_texts_mv TO {db}.agg_texts AS
SELECT project_id, schema_id, x.1 AS item_id, time_created AS t, response_id, x.2 AS text, deleted, completed,
       site_id, group_id, team_id, user_id, d_created, d_updated, d_completed, d_uploaded, sum(sign) AS n
FROM {db}.state_changes
ARRAY JOIN arrayFilter(x -> x.2 != '', arrayZip(a_item, a_text)) AS x
GROUP BY project_id, schema_id, item_id, t, response_id, text, deleted, completed, site_id, group_id, team_id,
         user_id, d_created, d_updated, d_completed, d_uploaded;

-- The new states are written by the same insert as the changes that count them (rows of sign +1): one call into
-- ClickHouse per batch fewer.
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.response_state_mv TO {db}.response_state AS
SELECT project_id, schema_id, response_id, version, user_id, site_id, group_id, team_id, completed, deleted,
       time_created, time_updated, time_completed, time_uploaded, d_created, d_updated, d_completed, d_uploaded,
       a_item, a_num, a_choices, a_date, a_text
FROM {db}.state_changes
WHERE sign = 1;
