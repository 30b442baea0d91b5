-- Responses and answers as the results queries read them (docs/results.md): one row per response version and one per
-- answer, in ReplacingMergeTree tables keyed so that a newer version replaces an older one; a re-sent version
-- collapses into itself. Answers carry the response fields that filters use, so no query needs a join.
CREATE TABLE IF NOT EXISTS {db}.responses (
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
  lat Nullable(Float64)
) ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, schema_id, response_id);

-- An answer row: the number (numbers, currency, calculated), the text (open, barcode, concatenation, media key),
-- the choice ids, the date, or the point of a geotag. A question answered before and not any more gets a row with
-- removed = 1 at the new version.
CREATE TABLE IF NOT EXISTS {db}.answers (
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
ORDER BY (project_id, schema_id, item_id, response_id, repeat);
