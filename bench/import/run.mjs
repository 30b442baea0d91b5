#!/usr/bin/env node
// Import benchmark: a CSV of N rows (default 100,000) of the 20-question form of bench/export, uploaded through the
// API and imported by an import job on the whole stack (gateway, exports worker, responses service writing to
// PostgreSQL with the outbox); rows per second from the job's start to its end, the job's own progress polled every
// second, and the exports process's peak RSS. Then the same file imported again (everything unmodified).
//   full:  pnpm bench:import          (records the figures in docs/benchmarks.md)
//   smoke: node bench/import/run.mjs --smoke
//   CPU profiles of the exports and responses processes over both imports: node bench/import/run.mjs --profile
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { startTestStack } from '@fieldwork/launcher';
import postgres from 'postgres';
import { auth } from '@fieldwork/proto';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { createClient } from '@fieldwork/service-kit';
import { profiling, report, startProfiles, stopProfiles } from '../profile/profile.mjs';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 2_000 : Number(process.env.BENCH_ROWS ?? 100_000);
const profile = process.argv.includes('--profile') ? profiling() : undefined;

let body = addBlock(newSchemaBody('S'), { en: 'Household' });
const blockId = body.id;
body = body.body;
const kinds = [...Array(8).fill('number'), ...Array(7).fill('choice'), ...Array(4).fill('open'), 'date'];
for (const [i, type] of kinds.entries()) body = addItem(body, blockId, type, 'en', `Question ${i + 1}`).body;
for (let item = 9; item <= 15; item++)
  for (const label of ['Alpha', 'Beta', 'Gamma', 'Delta']) body = addChoice(body, item, 'en', label).body;
const labels = ['Alpha', 'Beta', 'Gamma', 'Delta'];

function csv(n) {
  const lines = [['time_created', ...kinds.map((_, i) => `Question ${i + 1}`)].join(',')];
  for (let i = 0; i < n; i++) {
    const cells = [`2025-01-01 00:00:${String(i % 60).padStart(2, '0')}`];
    for (let q = 1; q <= 8; q++) cells.push(String((i * 7 + q * 13) % 100));
    for (let q = 9; q <= 15; q++) cells.push(labels[(i + q) % 4]);
    for (let q = 16; q <= 19; q++) cells.push(`answer ${i % 997} to question ${q}`);
    cells.push(`2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`);
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** RSS of a process, in MB (Linux /proc). */
function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** CPU seconds a process has used (user + system, Linux /proc; 100 ticks a second). */
function cpuS(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const stack = await startTestStack(profile ? { extraEnv: profile.env } : {});
let exitCode = 0;
try {
  const api = async (method, path, options = {}) => {
    const res = await fetch(`${stack.baseUrl}/api/${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `JWT ${options.token}` } : {}),
        ...(options.form ? {} : { 'content-type': 'application/json' }),
      },
      body: options.form ?? (options.body ? JSON.stringify(options.body) : undefined),
    });
    const json = await res.json().catch(() => null);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const login0 = await api('POST', 'api-token-auth/', {
    body: { username: stack.demo.username, password: stack.demo.password },
  });
  const admin = createClient(auth.AuthServiceClient, `127.0.0.1:${stack.ports.auth}`, { secret: stack.contextSecret });
  await admin.adminSetFeatures({ organization_id: login0.organization.id, enable: ['ingestion'], disable: [] });
  admin.close();
  const { access: token, organization } = await api('POST', 'api-token-auth/', {
    body: { username: stack.demo.username, password: stack.demo.password },
  });
  const project = await api('POST', 'project/', {
    token,
    body: { name: 'Import bench', organization_pk: organization.id, geotag: { type: 'Point', coordinates: [0, 0] } },
  });
  await api('PUT', `samplerschema/${project.sampler_schemas[0].id}/`, { token, body: { ...body, revision: 1 } });
  const text = csv(N);
  const form = new FormData();
  form.append('file', new Blob([text]), 'bench.csv');
  const file = await api('POST', `project/${project.id}/upload/`, { token, form });
  const exportsPid = stack.stack.children.get('exports')?.process.pid;
  const responsesPid = stack.stack.children.get('responses')?.process.pid;
  // PostgreSQL's share: the server processes of the stack's database (their CPU read from /proc, as the others').
  const sql = postgres(stack.infra.databaseUrl, { max: 1, onnotice: () => undefined });
  const backends = async () =>
    (await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`).map(
      (r) => r.pid,
    );
  const pgCpu = async (seen) => {
    for (const pid of await backends()) seen.set(pid, cpuS(pid));
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };
  const cpuNow = async (seen) => ({
    exports: cpuS(exportsPid),
    responses: cpuS(responsesPid),
    postgres: await pgCpu(seen),
  });

  async function timedImport() {
    const t0 = performance.now();
    const seen0 = new Map();
    const c0 = await cpuNow(seen0);
    const seen = new Map(seen0);
    const { job } = await api('POST', `project/${project.id}/import/`, {
      token,
      body: { data: { file_identifier: file.file_id } },
    });
    let j = job;
    let peak = 0;
    while (!['done', 'failed', 'cancelled'].includes(j.status)) {
      await new Promise((r) => setTimeout(r, smoke ? 200 : 1000));
      j = await api('GET', `exports/jobs/${job.id}/`, { token });
      if (exportsPid) peak = Math.max(peak, rssMb(exportsPid));
      await pgCpu(seen); // backends that come and go are counted while they live
      if (!smoke) process.stdout.write(`\r${j.status} ${j.rows_done}/${j.rows_total} (${j.percent}%)   `);
    }
    const s = (performance.now() - t0) / 1000;
    const c1 = await cpuNow(seen);
    const cpu = {
      exports: c1.exports - c0.exports,
      responses: c1.responses - c0.responses,
      postgres: c1.postgres - c0.postgres,
    };
    if (j.status !== 'done' || j.rows_failed !== 0)
      throw new Error(`import ${j.status}: ${j.error} ${j.rows_failed} failed`);
    return { s, rate: N / s, result: j.result, peak, cpu };
  }
  // Profiles over both imports (a process stops profiling once; the stop also puts nats-server in lame duck mode).
  if (profile) startProfiles(stack);
  const first = await timedImport();
  const second = await timedImport();
  await sql.end();
  if (profile) {
    await stopProfiles(stack);
    report(profile.dir, ['exports', 'responses']);
  }
  if (first.result.stored !== N || second.result.unmodified !== N)
    throw new Error(`unexpected results ${JSON.stringify([first.result, second.result])}`);

  const f = (n) => Math.round(n).toLocaleString('en');
  // CPU seconds per 1,000 rows of the exports worker, the responses service and the database's PostgreSQL backends.
  const per1k = (c) => ((1000 * c) / N).toFixed(3);
  const line = (label, r) =>
    `| ${label} | ${f(N)} | ${(text.length / 2 ** 20).toFixed(1)} | ${r.s.toFixed(1)} | ${f(r.rate)} | ${per1k(r.cpu.exports)} | ${per1k(r.cpu.responses)} | ${per1k(r.cpu.postgres)} | ${f(r.result.stored)} | ${f(r.result.unmodified)} | ${r.peak || 'n/a'} |`;
  const table = [
    '| import | rows | MB | seconds | rows/s | exports CPU s / 1,000 rows | responses CPU s / 1,000 rows | PostgreSQL CPU s / 1,000 rows | stored | unmodified | exports RSS peak MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    line('first import (new responses)', first),
    line('same file again', second),
  ].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end (other work on the machine)`;
  const command = smoke ? 'node bench/import/run.mjs --smoke' : `BENCH_ROWS=${N} pnpm bench:import`;
  console.log(`\n\n${table}\n\n${machine}\nreproduce: ${command}\n`);
  if (!smoke && !profile) {
    const title = '## Imports: CSV of 20 questions through an import job';
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}. A CSV of ${f(N)} rows (20 questions: 8 numbers, 7 choices by label, 4 texts, 1 date, and time_created) uploaded through the API and imported by one import job on the whole stack started by the launcher (gateway, exports worker, responses service, PostgreSQL, NATS; results ingestion runs behind it). Time from the import request to the job's done state, polled every second. Each row is mapped and checked with packages/sampler in the worker, then stored through the responses service's ImportBatch (batches of 500, the upload's checks and decisions, an outbox row per response made by PostgreSQL from the inserted row). The CPU columns are CPU-seconds per 1,000 rows of the exports worker, of the responses service and of the PostgreSQL backends serving the stack's database (read from /proc; PostgreSQL's background writers, NATS and the results ingestion not counted).\n\n${table}\n\nReproduce: \`${command}\`\n`;
    recordSection(title, section);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await stack.stop();
}
process.exit(exitCode);
