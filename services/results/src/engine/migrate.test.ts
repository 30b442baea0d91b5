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
    const responses = out.filter((s) => /^CREATE TABLE IF NOT EXISTS fw\.responses/.test(s));
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^CREATE TABLE IF NOT EXISTS fw\.responses_local ON CLUSTER main \(/);
    expect(responses[0]).toMatch(
      /ENGINE = ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{shard\}\/fw\/responses', '\{replica\}', version\)\nORDER BY \(project_id, schema_id, response_id\)$/,
    );
    expect(responses[1]).toBe(
      'CREATE TABLE IF NOT EXISTS fw.responses ON CLUSTER main AS fw.responses_local ENGINE = Distributed(main, fw, responses_local, cityHash64(project_id))',
    );
    expect(out.filter((s) => s.startsWith('CREATE TABLE IF NOT EXISTS fw.answers'))).toHaveLength(2);
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
