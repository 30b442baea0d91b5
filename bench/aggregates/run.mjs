#!/usr/bin/env node
// Ingestion into the aggregates, on the ingest path alone: response events of 20 answers (8 numbers, 7 choices,
// 4 texts, 1 date) written batch by batch as the results writer writes them (Aggregator.write: the counted states
// read, the signed changes and new states inserted, the views summing them; then the answers' tables), no NATS or
// gateway. A fifth of the events are edits of responses already counted (a retraction each). Prints responses per
// second and the CPU seconds per 1,000 responses (this process: chDB's threads included).
//   full:  pnpm bench:aggregates        (BENCH_EVENTS, default 200,000; BENCH_BATCH, default 2,000)
//   smoke: node bench/aggregates/run.mjs --smoke
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@fieldwork/service-kit';
import { rowsOf } from '../../services/results/dist/domain/rows.js';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';
import { Aggregator } from '../../services/results/dist/ingest/aggregator.js';
import { IngestStore } from '../../services/results/dist/store/ingest.store.js';
import { StateStore } from '../../services/results/dist/store/state.store.js';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const EVENTS = smoke ? 4_000 : Number(process.env.BENCH_EVENTS ?? 200_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 2_000);
const loadAtStart = loadavg()[0];
const log = createLogger('bench', 'silent');
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-aggregates-'));
const engine = new ChdbEngine(dir);
const db = 'fieldwork';

const WORDS = ['water', 'river', 'school', 'clinic', 'road', 'market', 'rain', 'goats', 'maize', 'borehole'];
const base = Date.UTC(2026, 0, 1);
function event(n, version) {
  const t = new Date(base + n * 60_000).toISOString();
  const data = {};
  for (let item = 1; item <= 20; item++) {
    const h = (n * 31 + item * 17 + version * 7) % 1000;
    if (item <= 8) data[item] = h / 10;
    else if (item <= 15) data[item] = [(item - 9) * 4 + 1 + (h % 4)];
    else if (item <= 19) data[item] = `${WORDS[h % 10]} near the ${WORDS[(h >> 3) % 10]}`;
    else data[item] = new Date(base + (h % 365) * 86_400_000).toISOString().slice(0, 10);
  }
  return {
    response_id: `1-1-${(n % 500) + 1}-d-${n}`,
    version,
    project: 1,
    schema: 1,
    user: (n % 500) + 1,
    site: (n % 20) + 1,
    group: null,
    team: null,
    completed: n % 3 === 0,
    deleted: false,
    archived: false,
    parent_id: null,
    geotag: null,
    time_created: t,
    time_updated: t,
    time_completed: n % 3 === 0 ? t : null,
    time_uploaded: t,
    data: { 0: data },
  };
}

let exitCode = 0;
try {
  await migrateClickhouse(engine, db, log);
  const aggregator = new Aggregator(new StateStore(engine, db), log);
  const ingest = new IngestStore(engine, db);
  let fresh = 0;
  let edits = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let done = 0; done < EVENTS; done += BATCH) {
    const batch = [];
    for (let i = 0; i < BATCH && done + i < EVENTS; i++) {
      // Every fifth event edits a response counted in an earlier batch (version 2).
      if ((done + i) % 5 === 4 && fresh > BATCH) {
        batch.push(event(edits++ % (fresh - BATCH), 2));
      } else batch.push(event(fresh++, 1));
    }
    await aggregator.write(batch);
    const rows = batch.map(rowsOf);
    await ingest.insertBatch(
      rows.map((r) => r.response),
      rows.flatMap((r) => r.answers),
    );
  }
  const s = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpuS = (c.user + c.system) / 1e6;
  // The aggregates hold every response once.
  const [n] = await engine.query(`SELECT sum(n) AS n FROM ${db}.agg_responses WHERE project_id = 1 AND deleted = 0`);
  if (Number(n.n) !== fresh) throw new Error(`the aggregates count ${n.n} responses, not ${fresh}`);
  const rate = EVENTS / s;
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const command = smoke
    ? 'node bench/aggregates/run.mjs --smoke'
    : `BENCH_EVENTS=${EVENTS} BENCH_BATCH=${BATCH} pnpm bench:aggregates`;
  const line = `${EVENTS.toLocaleString('en')} events of 20 answers (${edits.toLocaleString('en')} edits) in batches of ${BATCH.toLocaleString('en')}: ${Math.round(rate).toLocaleString('en')} responses/s, ${s.toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU (${((cpuS / EVENTS) * 1000).toFixed(3)} CPU-s per 1,000 responses)`;
  console.log(
    `\n${line}\ntarget (issue 29): keep up with 2,000 responses/s of 20 answers\n${machine}\nreproduce: ${command}\n`,
  );
  if (!smoke) {
    const title = '## Ingestion into the aggregates';
    recordSection(
      title,
      `${title}\n\n${new Date().toISOString().slice(0, 10)}, ${machine}, load average ${loadAtStart.toFixed(1)} when the run began and ${loadavg()[0].toFixed(1)} at its end. The results writer's ingest path alone (bench/aggregates/run.mjs: Aggregator.write, then the answers' tables; chDB, no NATS): ${line}. Target (issue 29): keep up with 2,000 responses/s of 20 answers.\n\nReproduce: \`${command}\`\n`,
    );
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
