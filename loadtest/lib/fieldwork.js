// Shared by the k6 scripts: the address, the scenarios and form files, logging in, and a project with the load form.
import http from 'k6/http';
import { check, fail } from 'k6';
import { answersTo } from './answers.js';

export const BASE = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
export const SCENARIOS = JSON.parse(open('../scenarios.json'));
export const FORM = JSON.parse(open('../form.json'));
const JSON_HEADERS = { 'content-type': 'application/json' };

/** k6 options for a scenario: a ramp to its connections, held for its duration, with its thresholds. */
export function optionsFor(name) {
  const s = SCENARIOS[name];
  const vus = Number(__ENV.VUS || s.connections);
  const hold = `${Number(__ENV.DURATION || s.duration)}s`;
  const presets = {
    smoke: [{ duration: '5s', target: 1 }],
    load: [
      { duration: '10s', target: vus },
      { duration: hold, target: vus },
      { duration: '5s', target: 0 },
    ],
    stress: [
      { duration: '20s', target: vus * 4 },
      { duration: hold, target: vus * 4 },
      { duration: '10s', target: 0 },
    ],
  };
  return {
    scenarios: {
      [name]: {
        executor: 'ramping-vus',
        startVUs: 0,
        stages: presets[__ENV.PRESET || 'load'],
        gracefulRampDown: '10s',
      },
    },
    thresholds: {
      http_req_failed: [`rate<${s.thresholds.failedRate}`],
      [`http_req_duration{scenario:${name}}`]: [`p(95)<${s.thresholds.p95}`, `p(99)<${s.thresholds.p99}`],
      // A throughput floor, where the scenario sets one (requests per second).
      ...(s.thresholds.rps ? { [`http_reqs{scenario:${name}}`]: [`rate>=${s.thresholds.rps}`] } : {}),
    },
  };
}

export function health() {
  const r = http.get(`${BASE}/readyz`);
  if (!check(r, { 'the stack is ready': (x) => x.status === 200 })) fail(`${BASE}/readyz answered ${r.status}`);
}

export function login(username = __ENV.USERNAME || 'demo', password = __ENV.PASSWORD || 'fieldwork-demo') {
  const r = http.post(`${BASE}/api/api-token-auth/`, JSON.stringify({ username, password }), { headers: JSON_HEADERS });
  if (r.status !== 200) fail(`login answered ${r.status}: ${r.body}`);
  return r.json();
}

export function authHeaders(token) {
  return { ...JSON_HEADERS, authorization: `JWT ${token}` };
}

/** A new project with the load form; answers {projectId, schemaId}. */
export function projectWithForm(session, name) {
  const headers = authHeaders(session.access);
  const p = http.post(
    `${BASE}/api/project/`,
    JSON.stringify({ name, organization_pk: session.organization.id, geotag: { type: 'Point', coordinates: [0, 0] } }),
    { headers },
  );
  if (p.status !== 201) fail(`project answered ${p.status}: ${p.body}`);
  const project = p.json();
  const schemaId = project.sampler_schemas[0].id;
  const f = http.put(`${BASE}/api/samplerschema/${schemaId}/`, JSON.stringify({ ...FORM.body, revision: 1 }), {
    headers,
  });
  if (f.status !== 200) fail(`form answered ${f.status}: ${f.body}`);
  return { projectId: project.id, schemaId };
}

/** The answers of response number i (lib/answers.js, shared with the Node runners). */
export function answers(i) {
  return answersTo(FORM, i);
}

export function summary(name, data) {
  return {
    [`loadtest/results/${name}-summary.json`]: JSON.stringify(data, null, 2),
    stdout: `\n${name}: ${JSON.stringify(data.metrics.http_req_duration?.values ?? {})}\n`,
  };
}
