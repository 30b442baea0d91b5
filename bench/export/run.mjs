#!/usr/bin/env node
// Export benchmark, N responses of 20 questions (default 1,000,000), in two parts:
//   1. the whole path (api.mjs): each export queued through the gateway, run by the exports worker reading the
//      responses service, written to the object store and downloaded; the read alone beside it;
//   2. the writers alone: pages of 5,000 made here written as a named CSV and as an XLSX into the fs object store,
//      rows per second and peak memory (RSS and heap, sampled every 50 ms).
// Memory at a quarter, half and all of N shows whether it stays flat as rows grow.
//   full:  pnpm bench:export          (records the figures in docs/benchmarks.md)
//   smoke: node bench/export/run.mjs --smoke
//   CPU profiles of the exports and responses processes: BENCH_RESPONSES=100000 node bench/export/run.mjs --profile
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { FsObjectStore } from '@fieldwork/service-kit';
import { exportColumns } from '../../services/exports/dist/domain/columns.js';
import { writeCsv } from '../../services/exports/dist/export/csv-writer.js';
import { writeXlsx } from '../../services/exports/dist/export/xlsx-writer.js';
import { recordSection } from '../record.mjs';
import { profiling } from '../profile/profile.mjs';
import { runWholePath } from './api.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 10_000 : Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const N_API = smoke ? 2_000 : N;
const PAGE = 5000;

// The form: 8 numbers, 7 choices of 4, 4 open texts, 1 date.
let body = addBlock(newSchemaBody('S'), { en: 'Household' });
const blockId = body.id;
body = body.body;
const kinds = [...Array(8).fill('number'), ...Array(7).fill('choice'), ...Array(4).fill('open'), 'date'];
for (const [i, type] of kinds.entries()) body = addItem(body, blockId, type, 'en', `Question ${i + 1}`).body;
for (let item = 9; item <= 15; item++)
  for (const label of ['Alpha', 'Beta', 'Gamma', 'Delta']) body = addChoice(body, item, 'en', label).body;
const choices = (item) => body.entities.items[item].options.choices;
const names = {
  site: (id) => `Site ${id}`,
  group: (id) => `Group ${id}`,
  team: (id) => `Team ${id}`,
  user: (id) => `Collector ${id}`,
};

/** The answers of response i, keyed by item id. */
function answers(i) {
  const data = {};
  for (let item = 1; item <= 8; item++) data[item] = (i * 7 + item * 13) % 1000;
  for (let item = 9; item <= 15; item++) data[item] = [choices(item)[(i + item) % 4]];
  for (let item = 16; item <= 19; item++) data[item] = `answer ${i % 997} to question ${item}`;
  data[20] = `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  return data;
}

async function* pages(n, onPage) {
  for (let start = 0; start < n; start += PAGE) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + PAGE); i++) {
      const data = answers(i);
      rows.push({
        response_id: `1-1-7-web-${i}`,
        parent_id: null,
        user_id: 1 + (i % 50),
        site_id: 1 + (i % 20),
        group_id: null,
        team_id: null,
        device_id: 'web',
        completed: i % 3 === 0,
        time_created: new Date(1735689600000 + i * 1000).toISOString(),
        time_updated: new Date(1735689600000 + i * 1000).toISOString(),
        time_completed: null,
        time_uploaded: new Date(1735689600000 + i * 1000).toISOString(),
        geotag: { coordinates: [2 + (i % 100) / 100, 48 + (i % 50) / 100] },
        data: { 0: data },
      });
    }
    onPage?.(start + rows.length);
    yield rows;
  }
}

// --profile: CPU profiles of the exports and responses processes during each export (bench/profile).
const profile = process.argv.includes('--profile') ? profiling() : undefined;
const whole = await runWholePath({ N: N_API, body, data: answers, smoke, profile });

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-export-'));
const store = new FsObjectStore({ root: dir, publicBaseUrl: 'http://localhost', signingSecret: 'x'.repeat(32) });
await store.ensureReady();
const columns = exportColumns(body, 'named', 'en');
const mb = (b) => Math.round(b / 2 ** 20);

async function run(label, write, ext) {
  global.gc?.();
  const marks = [];
  let peakRss = 0;
  let peakHeap = 0;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const quarter = [Math.floor(N / 4), Math.floor(N / 2), N];
  const out = await write({
    store,
    key: `bench.${ext}`,
    columns,
    names,
    pages: pages(N, (done) => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
      for (const q of quarter)
        if (done >= q && !marks.some((x) => x.rows === q))
          marks.push({ rows: q, rss: peakRss, heap: peakHeap, s: (performance.now() - t0) / 1000 });
    }),
  });
  const s = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  clearInterval(sample);
  const cpu = (used.user + used.system) / 1e6;
  return { label, rows: out.rows, mbFile: mb(out.size), s, rate: out.rows / s, cpu, peakRss, peakHeap, marks };
}

const results = [await run('named CSV', writeCsv, 'csv'), await run('XLSX', writeXlsx, 'xlsx')];
rmSync(dir, { recursive: true, force: true });

const f = (n) => Math.round(n).toLocaleString('en');
const wholeTable = [
  '| export, whole path | rows | file MB | seconds | rows/s | CPU s (exports + responses) | rows per CPU-second | exports process RSS MB at 1/4, 1/2, all rows |',
  '|---|---:|---:|---:|---:|---:|---:|---|',
  ...whole.runs.map(
    (r) =>
      `| ${r.label} | ${f(r.rows)} | ${mb(r.bytes)} | ${r.s.toFixed(1)} | ${f(r.rows / r.s)} | ${r.cpu.toFixed(1)} | ${f(r.rows / r.cpu)} | ${r.marks.map((m) => mb(m.rss)).join(', ')} |`,
  ),
].join('\n');
const readTable = [
  '| read alone | rows | seconds | rows/s |',
  '|---|---:|---:|---:|',
  ...whole.reads.map((r) => `| ${r.label} | ${f(r.rows)} | ${r.s.toFixed(1)} | ${f(r.rows / r.s)} |`),
].join('\n');
const table = [
  '| export | rows | file MB | seconds | rows/s | rows per CPU-second | peak RSS MB at 1/4, 1/2, all rows | peak heap MB at 1/4, 1/2, all rows |',
  '|---|---:|---:|---:|---:|---:|---|---|',
  ...results.map(
    (r) =>
      `| ${r.label} | ${f(r.rows)} | ${r.mbFile} | ${r.s.toFixed(1)} | ${f(r.rate)} | ${f(r.rows / r.cpu)} | ${r.marks.map((m) => mb(m.rss)).join(', ')} | ${r.marks.map((m) => mb(m.heap)).join(', ')} |`,
  ),
].join('\n');
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end (other work on the machine)`;
const command = smoke ? 'node bench/export/run.mjs --smoke' : `BENCH_RESPONSES=${N} pnpm bench:export`;
console.log(
  `\nwhole path: ${N_API.toLocaleString('en')} responses (COPY into PostgreSQL in ${whole.seedS.toFixed(1)} s)\n\n${wholeTable}\n\n${readTable}\n\nwriters alone: ${N.toLocaleString('en')} responses x 20 questions (${columns.length} columns)\n\n${table}\n\ntargets: CSV >= 100,000 rows/s, XLSX >= 30,000 rows/s, memory flat as rows grow\n${machine}\nreproduce: ${command}\n`,
);
if (!smoke && !profile) {
  const title = '## Exports: the whole path and the writers';
  const date = new Date().toISOString().slice(0, 10);
  const section = `${title}\n\n${date}, ${machine}.\n\n**The whole path.** ${N_API.toLocaleString('en')} responses of the same form put into the responses table with COPY (${whole.seedS.toFixed(0)} s), then each export requested through the gateway (GET project/{id}/named_csv/?wait=0), run by the exports worker (ExportPage pages of 5,000 from the responses service over gRPC, written into the fs object store) and downloaded through its signed link; seconds from the request to the last byte downloaded; the exports process's RSS (from /proc, polled with the job) at a quarter, half and all of the rows.\n\n${wholeTable}\n\nThe read alone over the same rows, side by side:\n\n${readTable}\n\n**The writers alone.** ${N.toLocaleString('en')} responses of 20 questions (${columns.length} columns: response fields, 8 numbers, 7 choices written by name, 4 texts, 1 date), generated in pages of ${PAGE} as the worker gets them (times as ISO text) and written by the exports service's writers (CSV: csvRecord into 64 KB blocks; XLSX: the sheet's XML into a streaming zip, deflate level 1) into the fs object store; rows per CPU-second count this process's CPU, making the rows included. Peak memory is sampled every 50 ms and read at a quarter, half and all of the rows (the RSS includes what the ClickHouse read before it left in this process).\n\n${table}\n\nTargets: CSV at least 100,000 rows/s, XLSX at least 30,000 rows/s, memory flat as rows grow.\n\nReproduce: \`${command}\`\n`;
  recordSection(title, section);
}
