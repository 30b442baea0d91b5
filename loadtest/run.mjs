#!/usr/bin/env node
// Plays the k6 scenarios of loadtest/ on this machine, where no k6 binary exists: the same scenarios.json (what each
// sends, how many connections, how long, the thresholds) and the same form.json, driven by autocannon against a
// whole stack started by the launcher (or BASE_URL). Prints each scenario's figures against its thresholds and, on a
// full run, records them in docs/benchmarks.md.
//   full:  pnpm loadtest          (records the figures)
//   smoke: node loadtest/run.mjs --smoke
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { startTestStack } from '@fieldwork/launcher';
import { createPool } from '@fieldwork/service-kit';
import { recordSection } from '../bench/record.mjs';
import { answers, FORM } from './answers.mjs';

const smoke = process.argv.includes('--smoke');
const SCENARIOS = JSON.parse(readFileSync(new URL('./scenarios.json', import.meta.url), 'utf8'));

const quantile = (sorted, q) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const shape = (name) => ({
  connections: smoke ? Math.min(4, SCENARIOS[name].connections) : SCENARIOS[name].connections,
  duration: smoke ? 3 : SCENARIOS[name].duration,
});
const WAIT_TRIES = smoke ? 80 : 600;
// LOADTEST_ONLY=results (comma-separated names): play only those scenarios; figures printed, not recorded.
const ONLY = process.env.LOADTEST_ONLY ? process.env.LOADTEST_ONLY.split(',') : null;
const want = (name) => !ONLY || ONLY.includes(name);

/** Runs autocannon and measures every response's latency (autocannon's own percentiles have no p95). */
function cannon(opts) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let failed = 0;
    const failures = new Map();
    const instance = autocannon({ ...opts, timeout: 30 }, (err, r) => {
      if (err) return reject(err);
      latencies.sort((a, b) => a - b);
      if (failures.size > 0) console.log(`  answers >= 400 by status: ${JSON.stringify(Object.fromEntries(failures))}`);
      resolve({
        requests: latencies.length + r.errors,
        rps: r.requests.average,
        failed: failed + r.errors + r.timeouts,
        p50: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
        p99: quantile(latencies, 0.99),
      });
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms);
      if (status >= 400) {
        failed++;
        failures.set(status, (failures.get(status) ?? 0) + 1);
      }
    });
  });
}

const given = process.env.BASE_URL;
// One client address plays many users here: the gateway's per-address limit on logins (RATE_LIMIT_LOGIN_PER_MIN, 100 a
// minute by default) would answer 429 to nearly every login of the scenario, so the stack this starts lifts it. Against
// a deployment (BASE_URL), run the login scenario from several addresses or lift the limit there for the test.
const stack = given ? undefined : await startTestStack({ extraEnv: { RATE_LIMIT_LOGIN_PER_MIN: '1000000' } });
const base = (given ?? stack.baseUrl).replace(/\/$/, '');
let exitCode = 0;
try {
  const api = async (method, path, token, body) => {
    const res = await fetch(`${base}/api/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json().catch(() => null);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  /** Each invited address chooses the load test's password with the link mailed to it (the stack's database). */
  const confirmInvitations = async (emails) => {
    const sql = createPool(stack.infra.databaseUrl, { schema: 'auth', appName: 'loadtest', max: 1 });
    try {
      for (const email of emails) {
        let nonce;
        for (let i = 0; i < 50 && !nonce; i++) {
          const [mail] = await sql`select body from mail_outbox where lower(to_address) = ${email.toLowerCase()}
                                     and subject ilike '%invitation%' order by id desc limit 1`;
          nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail?.body ?? '')?.[1];
          if (!nonce) await new Promise((r) => setTimeout(r, 100));
        }
        if (!nonce) throw new Error(`no invitation was mailed to ${email}`);
        await api('POST', `accounts/user/${encodeURIComponent(email)}/reset`, undefined, {
          nonce,
          password: 'load test password 1',
        });
      }
    } finally {
      await sql.end();
    }
  };
  const username = process.env.USERNAME ?? stack?.demo.username ?? 'demo';
  const password = process.env.PASSWORD ?? stack?.demo.password ?? 'fieldwork-demo';
  const session = await api('POST', 'api-token-auth/', undefined, { username, password });
  const project = await api('POST', 'project/', session.access, {
    name: `Load test ${Date.now()}`,
    organization_pk: session.organization.id,
    geotag: { type: 'Point', coordinates: [0, 0] },
  });
  const schemaId = project.sampler_schemas[0].id;
  await api('PUT', `samplerschema/${schemaId}/`, session.access, { ...FORM.body, revision: 1 });
  const headers = { 'content-type': 'application/json', authorization: `JWT ${session.access}` };
  const rows = [];

  // login: two accounts per connection, as real sign-ins are (parallel attempts on one account queue on its throttle
  // count before the password is checked, services/auth session.service.ts), each connection logging in again and again.
  if (want('login')) {
    const accounts = [];
    for (let i = 0; i < 2 * shape('login').connections; i++) {
      const email = `loadtest-${Date.now()}-${i}@loadtest.invalid`;
      const created = await api('POST', 'api/v1/organization-user/', session.access, {
        email,
        password: 'load test password 1',
        organization: session.organization.id,
      });
      accounts.push({ username: email, password: 'load test password 1', user: created.user });
    }
    // An address added by someone else is an invitation its person confirms by choosing a password with the mailed
    // link: here, read from the stack's mail outbox. Against a deployment (BASE_URL) the scenario signs in as the
    // given account only.
    if (stack) await confirmInvitations(accounts.map((a) => a.username));
    else accounts.splice(0, accounts.length, { username, password });
    const loginBodies = accounts.map((a) => JSON.stringify({ username: a.username, password: a.password }));
    let nextLogin = 0;
    rows.push({
      name: 'login',
      ...(await cannon({
        url: `${base}/api/api-token-auth/`,
        ...shape('login'),
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: loginBodies[nextLogin++ % loginBodies.length] }),
          },
        ],
      })),
    });
  }

  // upload: a new response each request
  let n = 0;
  if (want('upload'))
    rows.push({
      name: 'upload',
      ...(await cannon({
        url: `${base}/api/project/${project.id}/response/`,
        ...shape('upload'),
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                sampler_schema: schemaId,
                response_id: `${project.id}-${schemaId}-lt-${n}`,
                data: answers(n++),
              }),
            }),
          },
        ],
      })),
    });
  // Wait until the results have every stored response of `projectId` (ingestion through NATS into ClickHouse).
  const visibleIn = async (projectId, schema, stored) => {
    const t0 = Date.now();
    let visible = 0;
    for (let i = 0; i < WAIT_TRIES && visible < stored; i++) {
      visible =
        (
          await api('POST', `project/${projectId}/results/schema/${schema}/`, session.access, {
            filters: {},
            item_ids: [],
          })
        ).levels?.[0]?.total_filtered_responses ?? 0;
      if (visible < stored) await new Promise((r) => setTimeout(r, 250));
    }
    if (visible < stored) console.log(`only ${visible} of ${stored} responses visible in the results`);
    return ((Date.now() - t0) / 1000).toFixed(1);
  };
  const stored = (
    await api('POST', `project/${project.id}/response-chunk/filter/?page=1&page_size=1`, session.access, {})
  ).count;
  const catchUp = await visibleIn(project.id, schemaId, stored);

  // results: the whole form of a project of its own with a fixed number of responses (scenarios.json), so that the
  // thresholds measure the same data whatever the upload scenario stored; uploaded 16 at a time before the run.
  const fixed = want('results') ? (smoke ? 200 : SCENARIOS.results.responses) : 0;
  const resultsProject = await api('POST', 'project/', session.access, {
    name: `Load test results ${Date.now()}`,
    organization_pk: session.organization.id,
    geotag: { type: 'Point', coordinates: [0, 0] },
  });
  const resultsSchema = resultsProject.sampler_schemas[0].id;
  await api('PUT', `samplerschema/${resultsSchema}/`, session.access, { ...FORM.body, revision: 1 });
  let seeded = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (seeded < fixed) {
        const k = seeded++;
        await api('POST', `project/${resultsProject.id}/response/`, session.access, {
          sampler_schema: resultsSchema,
          response_id: `${resultsProject.id}-${resultsSchema}-seed-${k}`,
          data: answers(k),
        });
      }
    }),
  );
  await visibleIn(resultsProject.id, resultsSchema, fixed);
  // While the results scenario runs, new responses keep arriving in its project (scenarios.json
  // results.uploadsPerSecond, paced over 8 loops): its answers are not only those of still data.
  // LOADTEST_UPLOADS_INTO=other sends them to the upload scenario's project instead (the results cache is per project).
  const into = process.env.LOADTEST_UPLOADS_INTO === 'other' ? { id: project.id, schema: schemaId } : null;
  let during = null;
  if (want('results')) {
    // UPLOAD_RATE (as for k6's results.js) overrides it; 0: still data.
    const rate = Number(process.env.UPLOAD_RATE ?? (smoke ? 20 : SCENARIOS.results.uploadsPerSecond));
    let running = true;
    const t0 = Date.now();
    let scheduled = 0;
    let next = fixed;
    const up = { sent: 0, failed: 0, latencies: [] };
    const uploads = Promise.all(
      Array.from({ length: rate > 0 ? 8 : 0 }, async () => {
        while (running) {
          const at = t0 + (scheduled++ * 1000) / rate;
          if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
          if (!running) break;
          const k = next++;
          const s = Date.now();
          up.sent++;
          const target = into ?? { id: resultsProject.id, schema: resultsSchema };
          await api('POST', `project/${target.id}/response/`, session.access, {
            sampler_schema: target.schema,
            response_id: `${target.id}-${target.schema}-live-${k}`,
            data: answers(k),
          }).then(
            () => up.latencies.push(Date.now() - s),
            () => up.failed++,
          );
        }
      }),
    );
    const res = await cannon({
      url: `${base}/api/project/${resultsProject.id}/results/schema/${resultsSchema}/`,
      method: 'POST',
      headers,
      body: JSON.stringify({ filters: {} }),
      ...shape('results'),
    });
    running = false;
    await uploads;
    const seconds = (Date.now() - t0) / 1000;
    up.latencies.sort((a, b) => a - b);
    during = { rate, seconds, ...up, perSecond: up.latencies.length / seconds, p95: quantile(up.latencies, 0.95) };
    if (up.failed > 0) exitCode = 1;
    rows.push({ name: 'results', ...res });
  }

  // exports: jobs end to end (queue, poll until the file is ready, download), on `connections` loops
  if (want('exports')) {
    const ex = shape('exports');
    const jobTimes = [];
    let exportFailures = 0;
    const end = Date.now() + ex.duration * 1000;
    await Promise.all(
      Array.from({ length: ex.connections }, async () => {
        while (Date.now() < end) {
          const s = Date.now();
          try {
            let { job } = await api(
              'GET',
              `project/${project.id}/named_csv/?schema=${schemaId}&wait=0`,
              session.access,
            );
            while (job.status === 'queued' || job.status === 'running') {
              await new Promise((r) => setTimeout(r, 250));
              job = await api('GET', `exports/jobs/${job.id}/`, session.access);
            }
            if (job.status !== 'done') throw new Error(job.error);
            const file = await fetch(job.url.startsWith('http') ? job.url : `${base}${job.url}`);
            if (file.status !== 200) throw new Error(`download ${file.status}`);
            await file.arrayBuffer();
            jobTimes.push(Date.now() - s);
          } catch {
            exportFailures++;
          }
        }
      }),
    );
    jobTimes.sort((a, b) => a - b);
    rows.push({
      name: 'exports',
      requests: jobTimes.length + exportFailures,
      rps: jobTimes.length / ex.duration,
      failed: exportFailures,
      p50: quantile(jobTimes, 0.5),
      p95: quantile(jobTimes, 0.95),
      p99: quantile(jobTimes, 0.99),
    });
  }

  const verdict = (r) => {
    const t = SCENARIOS[r.name].thresholds;
    const rate = r.requests > 0 ? r.failed / r.requests : 1;
    const misses = [
      rate >= t.failedRate && `failed ${(rate * 100).toFixed(2)}% >= ${t.failedRate * 100}%`,
      r.p95 >= t.p95 && `p95 ${Math.round(r.p95)} >= ${t.p95}`,
      r.p99 >= t.p99 && `p99 ${Math.round(r.p99)} >= ${t.p99}`,
      t.rps && r.rps < t.rps && `${r.rps.toFixed(1)} requests/s < ${t.rps}`,
    ].filter(Boolean);
    if (rate >= t.failedRate) exitCode = 1; // errors are failures; slow latencies are figures to report
    return misses.length === 0 ? 'met' : `not met (${misses.join(', ')})`;
  };
  const f = (x) => Math.round(x).toLocaleString('en');
  const table = [
    '| scenario | connections | seconds | requests | per second | failed | p50 ms | p95 ms | p99 ms | thresholds |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.name}${r.name === 'exports' ? ' (whole jobs)' : ''} | ${shape(r.name).connections} | ${shape(r.name).duration} | ${f(r.requests)} | ${r.rps.toFixed(1)} | ${r.failed} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${verdict(r)} |`,
    ),
  ].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const command = `${process.env.UPLOAD_RATE ? `UPLOAD_RATE=${process.env.UPLOAD_RATE} ` : ''}${into ? 'LOADTEST_UPLOADS_INTO=other ' : ''}${ONLY ? `LOADTEST_ONLY=${ONLY.join(',')} ` : ''}${smoke ? 'node loadtest/run.mjs --smoke' : 'pnpm loadtest'}`;
  const live =
    during && during.rate > 0
      ? ` While the results scenario ran, ${f(during.latencies.length)} more responses were uploaded into ${into ? 'another project' : 'its project'} (${during.perSecond.toFixed(1)} a second of ${during.rate} asked, p95 ${f(during.p95)} ms, ${during.failed} failed)${into ? '' : ', so its answers followed new data'}.`
      : '';
  console.log(
    `\n${table}\n\n${stored} responses stored by the upload scenario; all visible in the results ${catchUp} s after the load. The results scenario's project held ${fixed} responses when it began.${live}\n${machine}\nreproduce: ${command}\n`,
  );
  if (!smoke && !ONLY) {
    const title = '## Load tests: the k6 scenarios played with autocannon';
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}. loadtest/scenarios.json played by loadtest/run.mjs (autocannon; k6 is not installable here) against one whole stack started by the launcher on this machine — the load generator, the gateway, six services, PostgreSQL, NATS and chDB share the 2 cores. Exports are whole jobs (queue, poll, download) of the upload scenario's project; the results scenario queries a project of its own that held ${f(fixed)} responses when it began (scenarios.json), the same size on every run, while more are uploaded into it (scenarios.json results.uploadsPerSecond).${live} The same scenarios and thresholds are the k6 scripts in loadtest/.\n\n${table}\n\nThe ${f(stored)} uploaded responses were all visible in the results ${catchUp} s after the upload load ended.\n\nReproduce: \`${command}\`\n`;
    recordSection(title, section);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await stack?.stop();
}
process.exit(exitCode);
