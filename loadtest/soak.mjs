#!/usr/bin/env node
// Soak: SOAK_MINUTES (default 30) of mixed load on a whole stack started by the launcher — uploads, whole-form
// results queries and export jobs — sampling every process's resident memory and open file descriptors every
// 30 s. Memory and handles must stay flat (compared from the end of the first quarter, after warm-up, to the end) and
// no request may fail. Records the figures in docs/benchmarks.md.
//   full:  pnpm soak
//   smoke: node loadtest/soak.mjs --smoke    (1 minute, nothing recorded)
//   again: node loadtest/soak.mjs --from-samples artifacts/soak-samples.json   (the figures of a saved run, recorded)
// SOAK_UPLOADS_PER_SECOND (default 100) sets the steady upload rate.
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus, release, totalmem } from 'node:os';
import { startTestStack } from '@fieldwork/launcher';
import { recordSection } from '../bench/record.mjs';
import { answers, FORM } from './answers.mjs';

const smoke = process.argv.includes('--smoke');
const minutes = smoke ? 1 : Number(process.env.SOAK_MINUTES ?? 30);
const SAMPLE_MS = smoke ? 5_000 : 10_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const UPLOADS_PER_SECOND = Number(process.env.SOAK_UPLOADS_PER_SECOND ?? 100);

const rssMb = (pid) => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};
/**
 * A process's open descriptors, without those on its own threads' /proc entries (chDB reads each thread's
 * /proc/self/task/<tid>/ files for its profile counters, so its count follows its thread pool), and its threads.
 */
const handles = (pid) => {
  let fds = 0;
  let tasks = 0;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      fds++;
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(`/proc/${pid}/task/`)) tasks++;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return { fds: 0, threads: 0 };
  }
  const threads = Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { fds: fds - tasks, threads };
};

/**
 * The figures of a run (live, or from its saved samples): "flat" compares the second quarter (after warm-up) with
 * the last, memory by each window's median (a steady state; an export or a large answer in flight makes short peaks,
 * shown apart), descriptors by each window's lowest count (a query or a merge in flight opens files for a moment).
 */
function report({ minutes, rate, sampleMs, counts, inResults, errors, samples }) {
  const window = (from, to) =>
    samples.slice(
      Math.floor(samples.length * from),
      Math.max(Math.floor(samples.length * from) + 1, Math.floor(samples.length * to)),
    );
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const warm = window(0.25, 0.5);
  const late = window(0.75, 1);
  const lines = [];
  let grew = false;
  for (const name of Object.keys(samples[samples.length - 1].procs)) {
    const of = (rows, key) => rows.map((s) => s.procs[name]?.[key] ?? 0);
    const [a, b] = [median(of(warm, 'rss')), median(of(late, 'rss'))];
    const [fa, fb] = [Math.min(...of(warm, 'fds')), Math.min(...of(late, 'fds'))];
    const peak = Math.max(...of(samples, 'rss'));
    const rssGrowth = a > 0 ? ((b - a) / a) * 100 : 0;
    const flat = rssGrowth < 25 && fb - fa <= 10;
    if (!flat) grew = true;
    lines.push(
      `| ${name} | ${samples[0].procs[name]?.rss ?? 0} | ${a} | ${b} | ${peak} | ${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)}% | ${fa} → ${fb} (last quarter ${fb}–${Math.max(...of(late, 'fds'))}) | ${Math.min(...of(late, 'threads'))}–${Math.max(...of(late, 'threads'))} | ${flat ? 'flat' : 'GREW'} |`,
    );
  }
  const table = [
    '| process | RSS MB at start | 2nd quarter median | last quarter median | peak | change | open fds (lowest, 2nd → last quarter) | threads (last quarter) | |',
    '|---|---:|---:|---:|---:|---:|---|---|---|',
    ...lines,
  ].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const command = smoke ? 'node loadtest/soak.mjs --smoke' : `SOAK_MINUTES=${minutes} pnpm soak`;
  const summary = `${minutes} minutes: ${counts.uploads.toLocaleString('en')} uploads (all ${inResults === counts.uploads ? 'in' : 'NOT in'} the results), ${counts.results.toLocaleString('en')} whole-form results queries, ${counts.exports} export jobs (each a named CSV of everything uploaded so far), ${counts.errors} errors.`;
  console.log(
    `\n${summary}\n\n${table}\n${errors.length ? `\nerrors:\n${errors.join('\n')}\n` : ''}\n${machine}\nreproduce: ${command}\n`,
  );
  if (!smoke) {
    const title = '## Soak: mixed load for half an hour';
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}. loadtest/soak.mjs on one whole stack started by the launcher: 4 upload loops paced at ${rate} uploads/s in all, 2 whole-form results loops (250 ms apart), one export job every 15 s, all on the same 2 cores; every process's resident memory, open file descriptors and threads sampled every ${sampleMs / 1000} s (all samples in artifacts/soak-samples.json). "Flat" compares the second quarter (after warm-up) with the last: under 25% growth of the median RSS (an export or a large answer in flight makes short peaks, shown apart), and at most 10 more descriptors in the lowest count (a query or a merge in flight opens files for a moment). Descriptors on a process's own /proc/self/task entries are not counted: chDB keeps them for each thread of its pool, so they follow the thread count, shown beside. At the end, every accepted upload must be counted in the results.\n\n${summary}\n\n${table}\n\nReproduce: \`${command}\`\n`;
    recordSection(title, section);
  }
  // A one-minute smoke run checks the load and the counting; its quarters are still warm-up, so memory is shown only.
  if (smoke && grew)
    console.log('memory not judged in a smoke run: one minute is warm-up (run the 30 minutes for that)\n');
  return counts.errors > 0 || (grew && !smoke) ? 1 : 0; // results missing an upload counted as an error already
}

// --from-samples FILE: the figures again from a run's saved samples (artifacts/soak-samples.json), no load.
const fromSamples = process.argv.indexOf('--from-samples');
if (fromSamples > 0) process.exit(report(JSON.parse(readFileSync(process.argv[fromSamples + 1], 'utf8'))));

const stack = await startTestStack();
let exitCode = 0;
try {
  const base = stack.baseUrl;
  const api = async (method, path, token, body) => {
    const res = await fetch(`${base}/api/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const json = await res.json().catch(() => null);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  let session = await api('POST', 'api-token-auth/', undefined, {
    username: stack.demo.username,
    password: stack.demo.password,
  });
  const project = await api('POST', 'project/', session.access, {
    name: 'Soak',
    organization_pk: session.organization.id,
    geotag: { type: 'Point', coordinates: [0, 0] },
  });
  const schemaId = project.sampler_schemas[0].id;
  await api('PUT', `samplerschema/${schemaId}/`, session.access, { ...FORM.body, revision: 1 });

  const counts = { uploads: 0, results: 0, exports: 0, errors: 0 };
  const errors = [];
  const end = Date.now() + minutes * 60_000;
  // Access tokens live an hour; refresh one every 20 minutes as the web app would.
  const refresher = setInterval(
    () =>
      void api('POST', 'api-token-auth/', undefined, {
        username: stack.demo.username,
        password: stack.demo.password,
      }).then(
        (s) => (session = s),
        () => undefined,
      ),
    20 * 60_000,
  );
  // A steady load, not a flood: uploads are paced at UPLOADS_PER_SECOND over all loops, the others pause between calls.
  const started = Date.now();
  let scheduled = 0;
  const pace = async () => {
    const at = started + (scheduled++ * 1000) / UPLOADS_PER_SECOND;
    if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
  };
  const loop = async (what, fn, pauseMs) => {
    for (let i = 0; Date.now() < end; i++) {
      if (pauseMs === 'paced') await pace();
      try {
        await fn(i);
        counts[what]++;
      } catch (err) {
        counts.errors++;
        if (errors.length < 20) errors.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (typeof pauseMs === 'number' && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  let n = 0;
  const upload = () =>
    api('POST', `project/${project.id}/response/`, session.access, {
      sampler_schema: schemaId,
      response_id: `${project.id}-${schemaId}-soak-${n}`,
      data: answers(n++),
    });
  const results = () =>
    api('POST', `project/${project.id}/results/schema/${schemaId}/`, session.access, { filters: {} });
  const exportJob = async () => {
    let { job } = await api('GET', `project/${project.id}/named_csv/?wait=0`, session.access);
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((r) => setTimeout(r, 500));
      job = await api('GET', `exports/jobs/${job.id}/`, session.access);
    }
    if (job.status !== 'done') throw new Error(`export ${job.status}: ${job.error}`);
  };

  const samples = [];
  const sample = () => {
    const row = { t: Math.round((Date.now() - (end - minutes * 60_000)) / 1000), procs: {} };
    for (const [name, child] of stack.stack.children)
      row.procs[name] = { rss: rssMb(child.process.pid), ...handles(child.process.pid) };
    samples.push(row);
  };
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  await Promise.all([
    ...Array.from({ length: 4 }, () => loop('uploads', upload, 'paced')),
    ...Array.from({ length: 2 }, () => loop('results', results, 250)),
    loop('exports', exportJob, smoke ? 1000 : 15_000),
  ]);
  clearInterval(sampler);
  clearInterval(refresher);
  sample();

  // Every upload answered 2xx is in the results once the load stops.
  let inResults = -1;
  for (let i = 0; i < 240 && inResults !== counts.uploads; i++) {
    inResults = (await results().catch(() => ({})))?.levels?.[0]?.total_filtered_responses ?? -1;
    if (inResults !== counts.uploads) await new Promise((r) => setTimeout(r, 1000));
  }
  if (inResults !== counts.uploads) {
    counts.errors++;
    errors.push(`the results hold ${inResults} responses, ${counts.uploads} were accepted`);
  }

  mkdirSync(`${root}artifacts`, { recursive: true });
  writeFileSync(
    `${root}artifacts/soak-samples.json`,
    JSON.stringify(
      { minutes, rate: UPLOADS_PER_SECOND, sampleMs: SAMPLE_MS, counts, inResults, errors, samples },
      null,
      1,
    ),
  );
  exitCode = report({ minutes, rate: UPLOADS_PER_SECOND, sampleMs: SAMPLE_MS, counts, inResults, errors, samples });
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await stack.stop();
}
process.exit(exitCode);
