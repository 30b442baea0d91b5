#!/usr/bin/env node
// Export benchmark: N responses of 20 questions (default 1,000,000) written as a named CSV and as an XLSX by the
// exports service's writers into the fs object store, pages of 5,000 as the responses service's ExportPage answers
// them; rows per second and peak memory (RSS and heap, sampled every 50 ms), at a quarter, half and all of N to show
// whether memory stays flat as rows grow. The PostgreSQL read (ExportPage) is not in these figures.
//   full:  pnpm bench:export          (records the figures in docs/benchmarks.md)
//   smoke: node bench/export/run.mjs --smoke
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, totalmem, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { FsObjectStore } from '@fieldwork/service-kit';
import { exportColumns } from '../../services/exports/dist/domain/columns.js';
import { writeCsv } from '../../services/exports/dist/export/csv-writer.js';
import { writeXlsx } from '../../services/exports/dist/export/xlsx-writer.js';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 20_000 : Number(process.env.BENCH_RESPONSES ?? 1_000_000);
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

async function* pages(n, onPage) {
  for (let start = 0; start < n; start += PAGE) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + PAGE); i++) {
      const data = {};
      for (let item = 1; item <= 8; item++) data[item] = (i * 7 + item * 13) % 1000;
      for (let item = 9; item <= 15; item++) data[item] = [choices(item)[(i + item) % 4]];
      for (let item = 16; item <= 19; item++) data[item] = `answer ${i % 997} to question ${item}`;
      data[20] = `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      rows.push({
        response_id: `1-1-7-web-${i}`,
        parent_id: null,
        user_id: 1 + (i % 50),
        site_id: 1 + (i % 20),
        group_id: null,
        team_id: null,
        device_id: 'web',
        completed: i % 3 === 0,
        time_created: new Date(1735689600000 + i * 1000),
        time_updated: new Date(1735689600000 + i * 1000),
        time_completed: null,
        time_uploaded: new Date(1735689600000 + i * 1000),
        geotag: { coordinates: [2 + (i % 100) / 100, 48 + (i % 50) / 100] },
        data: { 0: data },
      });
    }
    onPage?.(start + rows.length);
    yield rows;
  }
}

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
  clearInterval(sample);
  return { label, rows: out.rows, mbFile: mb(out.size), s, rate: out.rows / s, peakRss, peakHeap, marks };
}

const results = [await run('named CSV', writeCsv, 'csv'), await run('XLSX', writeXlsx, 'xlsx')];
rmSync(dir, { recursive: true, force: true });

const f = (n) => Math.round(n).toLocaleString('en');
const table = [
  '| export | rows | file MB | seconds | rows/s | peak RSS MB at 1/4, 1/2, all rows | peak heap MB at 1/4, 1/2, all rows |',
  '|---|---:|---:|---:|---:|---|---|',
  ...results.map(
    (r) =>
      `| ${r.label} | ${f(r.rows)} | ${r.mbFile} | ${r.s.toFixed(1)} | ${f(r.rate)} | ${r.marks.map((m) => mb(m.rss)).join(', ')} | ${r.marks.map((m) => mb(m.heap)).join(', ')} |`,
  ),
].join('\n');
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
const command = smoke ? 'node bench/export/run.mjs --smoke' : `BENCH_RESPONSES=${N} pnpm bench:export`;
console.log(
  `\n${N.toLocaleString('en')} responses x 20 questions (${columns.length} columns)\n\n${table}\n\ntargets: CSV >= 100,000 rows/s, XLSX >= 30,000 rows/s, memory flat as rows grow\n${machine}\nreproduce: ${command}\n`,
);
if (!smoke) {
  const title = '## Exports: named CSV and XLSX writers';
  const date = new Date().toISOString().slice(0, 10);
  const section = `${title}\n\n${date}, ${machine}. ${N.toLocaleString('en')} responses of 20 questions (${columns.length} columns: response fields, 8 numbers, 7 choices written by name, 4 texts, 1 date), generated in pages of ${PAGE} as ExportPage answers them and written by the exports service's writers (csv-stringify; exceljs streaming workbook without shared strings) into the fs object store. Peak memory is sampled every 50 ms and read at a quarter, half and all of the rows. The PostgreSQL read path (ExportPage) is not included.\n\n${table}\n\nTargets: CSV at least 100,000 rows/s, XLSX at least 30,000 rows/s, memory flat as rows grow.\n\nReproduce: \`${command}\`\n`;
  recordSection(title, section);
}
