-- The answers' tables partitioned by project range and month created (docs/results.md "Storage"). ClickHouse cannot
-- change a table's partition key in place: each table is made again with the key and its rows are copied into it.
--
-- Why month of time_created: a month that no upload touches any more becomes, by ClickHouse's own merges, one part
-- (min_age_to_force_merge_seconds, within its partition only), and a FINAL read skips the merge of a partition of one
-- part (do_not_merge_across_partitions_select_final, set on every query): only the months still written are merged at
-- read time, so a scan's cost no longer depends on how many old parts there are. It is exact because every version of
-- a response, and each of its answers, has the same project and time_created (the responses service keeps the stored
-- time_created on every edit and import), so all versions of a row are in one partition.
--
-- The new tables take the names at once (EXCHANGE), so ingestion writes into them while the old rows are copied; a
-- copied row older than one written meanwhile loses to it by version, as any older version does. Until the copy ends,
-- a scan sees the rows copied so far; the aggregates are untouched. The copy needs free disk for the tables' size once.
CREATE TABLE IF NOT EXISTS {db}.responses_next (
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
  archived UInt8,
  parent_id String,
  time_created DateTime64(3, 'UTC'),
  time_updated DateTime64(3, 'UTC'),
  time_completed Nullable(DateTime64(3, 'UTC')),
  time_uploaded DateTime64(3, 'UTC'),
  lng Nullable(Float64),
  lat Nullable(Float64),
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = ReplacingMergeTree(version)
PARTITION BY (intDiv(project_id, 1000), toYYYYMM(time_created))
ORDER BY (project_id, schema_id, response_id)
SETTINGS min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1;

CREATE TABLE IF NOT EXISTS {db}.answers_next (
  project_id UInt64,
  schema_id UInt64,
  item_id UInt32,
  response_id String,
  repeat UInt16,
  version UInt32,
  removed UInt8,
  num Nullable(Float64),
  text String,
  choices Array(UInt32),
  date Nullable(Date32),
  lng Nullable(Float64),
  lat Nullable(Float64),
  user_id UInt64,
  site_id UInt64,
  group_id UInt64,
  team_id UInt64,
  completed UInt8,
  deleted UInt8,
  time_created DateTime64(3, 'UTC'),
  time_updated DateTime64(3, 'UTC'),
  time_completed Nullable(DateTime64(3, 'UTC')),
  time_uploaded DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree(version)
PARTITION BY (intDiv(project_id, 1000), toYYYYMM(time_created))
ORDER BY (project_id, schema_id, item_id, response_id, repeat)
SETTINGS min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1;

EXCHANGE TABLES {db}.responses AND {db}.responses_next;

EXCHANGE TABLES {db}.answers AND {db}.answers_next;

INSERT INTO {db}.responses SELECT * FROM {db}.responses_next;

INSERT INTO {db}.answers SELECT * FROM {db}.answers_next;

DROP TABLE IF EXISTS {db}.responses_next;

DROP TABLE IF EXISTS {db}.answers_next;
