-- When a row reached ClickHouse: the lag from the upload's commit (time_uploaded) to being queryable.
ALTER TABLE {db}.responses ADD COLUMN IF NOT EXISTS ingested_at DateTime64(3, 'UTC') DEFAULT now64(3);
