import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clusterStatements, MIGRATIONS_DIR, statements } from './migrate.js';

describe('ClickHouse migrations on a cluster', () => {
  const dir = fileURLToPath(MIGRATIONS_DIR);
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .flatMap((f) => statements(readFileSync(`${dir}/${f}`, 'utf8'), 'fw'));

  it('makes replicated local tables and distributed tables over them, sharded by project, every statement on the cluster', () => {
    const out = clusterStatements(all, 'main', 'fw');
    const responses = out.filter((s) => /^CREATE TABLE IF NOT EXISTS fw\.responses(_local)? /.test(s));
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^CREATE TABLE IF NOT EXISTS fw\.responses_local ON CLUSTER main \(/);
    expect(responses[0]).toMatch(
      /ENGINE = ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{shard\}\/fw\/responses', '\{replica\}', version\)\nORDER BY \(project_id, schema_id, response_id\)$/,
    );
    // Repartitioned (0012): the new local tables are made, swapped with the old ones under the Distributed tables,
    // filled once through the Distributed tables, and the old ones dropped on every node.
    expect(out.find((s) => s.includes('fw.responses_next_local ON CLUSTER main ('))).toMatch(
      /ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{shard\}\/fw\/responses_next', '\{replica\}', version\)\nPARTITION BY \(intDiv\(project_id, 1000\), toYYYYMM\(time_created\)\)/,
    );
    const moves = out.filter((s) => /^(EXCHANGE|INSERT|DROP)/.test(s));
    // 0011's backfill of the durations, once through the Distributed tables.
    expect(moves.shift()).toMatch(
      /^INSERT INTO fw\.agg_durations SETTINGS distributed_foreground_insert = 1 SELECT [\s\S]*FROM fw\.response_state FINAL/,
    );
    expect(moves).toEqual([
      'EXCHANGE TABLES fw.responses_local AND fw.responses_next_local ON CLUSTER main',
      'EXCHANGE TABLES fw.answers_local AND fw.answers_next_local ON CLUSTER main',
      'INSERT INTO fw.responses SETTINGS distributed_foreground_insert = 1 SELECT * FROM fw.responses_next',
      'INSERT INTO fw.answers SETTINGS distributed_foreground_insert = 1 SELECT * FROM fw.answers_next',
      'DROP TABLE IF EXISTS fw.responses_next ON CLUSTER main SYNC',
      'DROP TABLE IF EXISTS fw.responses_next_local ON CLUSTER main SYNC',
      'DROP TABLE IF EXISTS fw.answers_next ON CLUSTER main SYNC',
      'DROP TABLE IF EXISTS fw.answers_next_local ON CLUSTER main SYNC',
      // 0013: every project counted again with the rollups.
      'INSERT INTO fw.agg_projects (project_id, tz, ready) SETTINGS distributed_foreground_insert = 1 SELECT project_id, tz, 0 FROM fw.agg_projects FINAL WHERE ready = 1',
    ]);
    expect(responses[1]).toBe(
      'CREATE TABLE IF NOT EXISTS fw.responses ON CLUSTER main AS fw.responses_local ENGINE = Distributed(main, fw, responses_local, cityHash64(project_id))',
    );
    expect(out.filter((s) => /^CREATE TABLE IF NOT EXISTS fw\.answers(_local)? /.test(s))).toHaveLength(2);
    expect(out.filter((s) => s.startsWith('ALTER TABLE'))).toEqual([
      "ALTER TABLE fw.responses_local ON CLUSTER main ADD COLUMN IF NOT EXISTS ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)",
      "ALTER TABLE fw.responses ON CLUSTER main ADD COLUMN IF NOT EXISTS ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)",
    ]);
    // An INSERT (a backfill) runs once, through the Distributed tables.
    expect(out.filter((s) => !s.startsWith('INSERT')).every((s) => s.includes('ON CLUSTER main'))).toBe(true);
    // A cluster name that is not a plain identifier is quoted.
    expect(clusterStatements(all, 'prod-eu', 'fw')[0]).toContain('ON CLUSTER `prod-eu`');
  });

  it('makes the aggregates replicated and distributed by project, the Null table local, and the views local to local', () => {
    const out = clusterStatements(all, 'main', 'fw');
    const values = out.filter((s) => /^CREATE TABLE IF NOT EXISTS fw\.agg_values/.test(s));
    expect(values[0]).toMatch(
      /^CREATE TABLE IF NOT EXISTS fw\.agg_values_local ON CLUSTER main \([\s\S]*\) ENGINE = ReplicatedSummingMergeTree\('\/clickhouse\/tables\/\{shard\}\/fw\/agg_values', '\{replica\}'\)\nPARTITION BY/,
    );
    expect(values[1]).toBe(
      'CREATE TABLE IF NOT EXISTS fw.agg_values ON CLUSTER main AS fw.agg_values_local ENGINE = Distributed(main, fw, agg_values_local, cityHash64(project_id))',
    );
    const changes = out.filter((s) => /^CREATE TABLE IF NOT EXISTS fw\.state_changes/.test(s));
    expect(changes[0]).toMatch(/ENGINE = Null$/);
    expect(changes[1]).toContain('Distributed(main, fw, state_changes_local, cityHash64(project_id))');
    const view = out.find((s) => s.includes('fw.agg_cube_mv'))!;
    expect(view).toMatch(
      /^CREATE MATERIALIZED VIEW IF NOT EXISTS fw\.agg_cube_mv ON CLUSTER main TO fw\.agg_cube_local AS/,
    );
    expect(view).toContain('FROM fw.state_changes_local');
    expect(view).not.toMatch(/fw\.state_changes\b(?!_local)/);
    // The journal has no project: spread at random.
    expect(out.find((s) => s.includes('fw.agg_journal ON CLUSTER main AS'))).toContain('rand()');
    expect(out.find((s) => s.includes('fw.response_state_local'))).toContain(
      "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/fw/response_state', '{replica}', version)",
    );
  });

  it("makes the results cache's marks a replicated summing table, with a distributed table sharded by project", () => {
    const marks = clusterStatements(all, 'main', 'fw').filter((s) =>
      /^CREATE TABLE IF NOT EXISTS fw\.project_marks/.test(s),
    );
    expect(marks).toHaveLength(2);
    expect(marks[0]).toMatch(
      /^CREATE TABLE IF NOT EXISTS fw\.project_marks_local ON CLUSTER main \([\s\S]*\) ENGINE = ReplicatedSummingMergeTree\('\/clickhouse\/tables\/\{shard\}\/fw\/project_marks', '\{replica\}'\)\nORDER BY project_id$/,
    );
    expect(marks[1]).toBe(
      'CREATE TABLE IF NOT EXISTS fw.project_marks ON CLUSTER main AS fw.project_marks_local ENGINE = Distributed(main, fw, project_marks_local, cityHash64(project_id))',
    );
  });
});
