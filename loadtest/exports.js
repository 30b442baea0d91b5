// k6: export jobs end to end: queue a named CSV, poll the job until its file is ready, download the file.
// The job's whole time is the custom trend export_job_ms. k6 run -e BASE_URL=... -e PROJECT_ID=... -e SCHEMA_ID=... loadtest/exports.js
import http from 'k6/http';
import { check, fail, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import { authHeaders, BASE, health, login, optionsFor, projectWithForm, SCENARIOS, summary } from './lib/fieldwork.js';

const jobMs = new Trend('export_job_ms', true);
const base = optionsFor('exports');
export const options = {
  ...base,
  thresholds: {
    http_req_failed: base.thresholds.http_req_failed,
    export_job_ms: [`p(95)<${SCENARIOS.exports.thresholds.p95}`, `p(99)<${SCENARIOS.exports.thresholds.p99}`],
  },
};

export function setup() {
  health();
  const session = login();
  if (__ENV.PROJECT_ID && __ENV.SCHEMA_ID)
    return { session, projectId: Number(__ENV.PROJECT_ID), schemaId: Number(__ENV.SCHEMA_ID) };
  return { session, ...projectWithForm(session, `k6 exports ${Date.now()}`) };
}

export default function (ctx) {
  const headers = authHeaders(ctx.session.access);
  const t0 = Date.now();
  const start = http.get(`${BASE}/api/project/${ctx.projectId}/named_csv/?schema=${ctx.schemaId}&wait=0`, { headers });
  if (!check(start, { queued: (x) => x.status === 202 || x.status === 200 })) return;
  let job = start.json('job');
  while (job.status === 'queued' || job.status === 'running') {
    if (Date.now() - t0 > 120_000) fail(`export job ${job.id} did not finish in 2 minutes`);
    sleep(0.5);
    job = http.get(`${BASE}/api/exports/jobs/${job.id}/`, { headers }).json();
  }
  check(job, { done: (j) => j.status === 'done' && typeof j.url === 'string' });
  if (job.url)
    check(http.get(job.url.startsWith('http') ? job.url : `${BASE}${job.url}`), {
      downloaded: (x) => x.status === 200,
    });
  jobMs.add(Date.now() - t0);
}

export function handleSummary(data) {
  return summary('exports', data);
}
