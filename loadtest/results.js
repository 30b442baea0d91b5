// k6: whole-form results of a project that already has responses (PROJECT_ID and SCHEMA_ID), or of a new one filled
// with SEED responses first (default: the scenario's fixed size, scenarios.json results.responses, so that the
// threshold always measures the same data). k6 run -e BASE_URL=... loadtest/results.js
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

export const options = optionsFor('results');

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

export function handleSummary(data) {
  return summary('results', data);
}
