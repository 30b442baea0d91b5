#!/usr/bin/env node
// Where the time of a results query goes: the number-question query of the results service at N responses, and the
// same with parts of it removed (FINAL, the histogram, the exact quartiles), in chDB. A tool for tuning, not a
// recorded benchmark.   BENCH_RESPONSES=1000000 node bench/results/variants.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';

const N = Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-variants-'));
const engine = new ChdbEngine(dir);
const db = 'fieldwork';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  await migrateClickhouse(engine, db, createLogger('variants', 'silent'));
  const t0 = performance.now();
  await engine.exec(`INSERT INTO ${db}.answers (project_id, schema_id, item_id, response_id, repeat, version, removed, num, text, choices, date, user_id, site_id, group_id, team_id, completed, deleted, time_created, time_updated, time_completed, time_uploaded)
    SELECT 1, 1, item, toString(n), 0, 1, 0, if(item <= 8, (cityHash64(n, item) % 1000) / 10, NULL), '', if(item BETWEEN 9 AND 15, [toUInt32((item - 9) * 4 + 1 + cityHash64(n, item) % 4)], []), NULL,
      n % 500 + 1, n % 20 + 1, 0, 0, n % 3 = 0, 0, now64(3), now64(3), NULL, now64(3)
    FROM (SELECT number AS n FROM numbers(${N})) ARRAY JOIN range(1, 21) AS item`);
  console.log(`loaded ${N} x 20 in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const where = `project_id = 1 AND schema_id = 1 AND deleted = 0 AND item_id = 3 AND removed = 0 AND num IS NOT NULL`;
  const variants = {
    'as now (FINAL, exact quartiles, histogram)': `SELECT count(), sum(num), avg(num), min(num), max(num), stddevSamp(num), varSamp(num), quantilesExactInclusive(0.25, 0.5, 0.75)(num), histogram(10)(num) FROM ${db}.answers FINAL WHERE ${where}`,
    'no FINAL': `SELECT count(), sum(num), avg(num), min(num), max(num), stddevSamp(num), varSamp(num), quantilesExactInclusive(0.25, 0.5, 0.75)(num), histogram(10)(num) FROM ${db}.answers WHERE ${where}`,
    'FINAL, no histogram': `SELECT count(), sum(num), avg(num), min(num), max(num), stddevSamp(num), varSamp(num), quantilesExactInclusive(0.25, 0.5, 0.75)(num) FROM ${db}.answers FINAL WHERE ${where}`,
    'FINAL, no quartiles, no histogram': `SELECT count(), sum(num), avg(num), min(num), max(num), stddevSamp(num), varSamp(num) FROM ${db}.answers FINAL WHERE ${where}`,
    'no FINAL, no quartiles, no histogram': `SELECT count(), sum(num), avg(num), min(num), max(num), stddevSamp(num), varSamp(num) FROM ${db}.answers WHERE ${where}`,
    'FINAL count only': `SELECT count() FROM ${db}.answers FINAL WHERE ${where}`,
    'count only': `SELECT count() FROM ${db}.answers WHERE ${where}`,
  };
  const run = async (label) => {
    console.log(
      label,
      JSON.stringify(
        await engine.query(
          `SELECT count() AS parts, max(level) AS level FROM system.parts WHERE database = '${db}' AND table = 'answers' AND active`,
        ),
      ),
    );
    for (const [name, sql] of Object.entries(variants)) {
      await engine.query(sql);
      const ms = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await engine.query(sql);
        ms.push(performance.now() - t);
      }
      console.log(`${median(ms).toFixed(1).padStart(8)} ms  ${name}`);
    }
  };
  variants['FINAL, do_not_merge_across_partitions_select_final'] =
    `${variants['FINAL, no quartiles, no histogram']} SETTINGS do_not_merge_across_partitions_select_final = 1`;
  variants['bins by fixed width, no FINAL'] =
    `SELECT floor((num - 0) / 10) AS b, count() FROM ${db}.answers WHERE ${where} GROUP BY b`;
  await run('as loaded');
  const t1 = performance.now();
  await engine.exec(`OPTIMIZE TABLE ${db}.answers FINAL`);
  console.log(`OPTIMIZE FINAL took ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  await run('after OPTIMIZE FINAL');
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
