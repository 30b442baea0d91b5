-- The results cache's marks (docs/results.md, "The results cache"): how many times what a project's results read has
-- changed. A write adds 1 to a project's count once its data is written: the ingestor after each batch's inserts, for
-- every project the batch touched; a purge after its deletes. Project 0 counts the changes of the whole store: a
-- rebuild (after the tables are dropped and made again) and any migration applied. The counts only grow: a rebuild
-- keeps this table (it is no data table), and readers sum `changes`, so ClickHouse's merges never change a count. A
-- results request reads its project's count and project 0's with one primary-key lookup.
CREATE TABLE IF NOT EXISTS {db}.project_marks (
  project_id UInt64,
  changes UInt64
) ENGINE = SummingMergeTree()
ORDER BY project_id;
