// k6: whole-form results of a project that already has responses (PROJECT_ID and SCHEMA_ID), or of a new one filled
// with SEED responses first (default: the scenario's fixed size, scenarios.json results.responses, so that the
// threshold always measures the same data), while new responses keep arriving in that project: the `uploads`
// scenario posts UPLOAD_RATE a second (default scenarios.json results.uploadsPerSecond; 0 for still data) for as long
// as the results scenario runs. k6 run -e BASE_URL=... loadtest/results.js
import http from 'k6/http';
import { check } from 'k6';
import {
  answers,
  authHeaders,
  BASE,
  health,
  login,
  optionsFor,
  projectWithForm,
  SCENARIOS,
  summary,
} from './lib/fieldwork.js';

const base = optionsFor('results');
const UPLOAD_RATE = Number(__ENV.UPLOAD_RATE ?? SCENARIOS.results.uploadsPerSecond);
/** Seconds the results scenario runs (its stages), which the uploads span. */
const seconds = base.scenarios.results.stages.reduce((s, st) => s + Number.parseInt(st.duration, 10), 0);

export const options = {
  ...base,
  scenarios: {
    ...base.scenarios,
    ...(UPLOAD_RATE > 0
      ? {
          uploads: {
            executor: 'constant-arrival-rate',
            rate: UPLOAD_RATE,
            timeUnit: '1s',
            duration: `${seconds}s`,
            preAllocatedVUs: 20,
            maxVUs: 200,
            exec: 'upload',
          },
        }
      : {}),
  },
};

export function setup() {
  health();
  const session = login();
  if (__ENV.PROJECT_ID && __ENV.SCHEMA_ID)
    return { session, projectId: Number(__ENV.PROJECT_ID), schemaId: Number(__ENV.SCHEMA_ID) };
  const ctx = { session, ...projectWithForm(session, `k6 results ${Date.now()}`) };
  const seed = Number(__ENV.SEED || SCENARIOS.results.responses);
  for (let i = 0; i < seed; i += 50) {
    const batch = [];
    for (let k = i; k < Math.min(seed, i + 50); k++) {
      batch.push([
        'POST',
        `${BASE}/api/project/${ctx.projectId}/response/`,
        JSON.stringify({
          sampler_schema: ctx.schemaId,
          response_id: `${ctx.projectId}-${ctx.schemaId}-seed-${k}`,
          data: answers(k),
        }),
        { headers: authHeaders(session.access) },
      ]);
    }
    http.batch(batch);
  }
  return ctx;
}

export default function (ctx) {
  const r = http.post(
    `${BASE}/api/project/${ctx.projectId}/results/schema/${ctx.schemaId}/`,
    JSON.stringify({ filters: {} }),
    { headers: authHeaders(ctx.session.access) },
  );
  check(r, { results: (x) => x.status === 200 && Array.isArray(x.json('items')) });
}

/** The uploads scenario: one new response into the results scenario's project. */
export function upload(ctx) {
  const r = http.post(
    `${BASE}/api/project/${ctx.projectId}/response/`,
    JSON.stringify({
      sampler_schema: ctx.schemaId,
      response_id: `${ctx.projectId}-${ctx.schemaId}-k6-live-${__VU}-${__ITER}-${Date.now()}`,
      data: answers(__VU * 1_000_000 + __ITER),
    }),
    { headers: authHeaders(ctx.session.access) },
  );
  check(r, { stored: (x) => x.status === 201 });
}

export function handleSummary(data) {
  return summary('results', data);
}
