// k6: response uploads into a new project with the load form. k6 run -e BASE_URL=... loadtest/upload.js
import http from 'k6/http';
import { check } from 'k6';
import { answers, authHeaders, BASE, health, login, optionsFor, projectWithForm, summary } from './lib/fieldwork.js';

export const options = optionsFor('upload');

export function setup() {
  health();
  const session = login();
  return { session, ...projectWithForm(session, `k6 uploads ${Date.now()}`) };
}

export default function (ctx) {
  const i = __VU * 1_000_000 + __ITER;
  const body = {
    sampler_schema: ctx.schemaId,
    response_id: `${ctx.projectId}-${ctx.schemaId}-k6-${__VU}-${__ITER}-${Date.now()}`,
    data: answers(i),
  };
  const r = http.post(`${BASE}/api/project/${ctx.projectId}/response/`, JSON.stringify(body), {
    headers: authHeaders(ctx.session.access),
  });
  check(r, { stored: (x) => x.status === 201 });
}

export function handleSummary(data) {
  return summary('upload', data);
}
