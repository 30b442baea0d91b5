// Observability on the whole stack: every service and the gateway serve Prometheus metrics (request rates and
// latencies, ClickHouse insert batches, JetStream lag, jobs), and a request's W3C trace context reaches every service
// it calls, in their logs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack({ metrics: true, extraEnv: { LOG_LEVEL: 'debug' } });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
});

const scrape = async (name: keyof TestStack['ports']) => {
  const res = await fetch(`http://127.0.0.1:${t.metricsPorts[name]}/metrics`);
  expect(res.status, name).toBe(200);
  return res.text();
};

describe('migrations for the chart', () => {
  it('runs only the migrations with MIGRATE=only (the Helm hook) and exits 0', async () => {
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: t.stack.children.get('forms')!.env.DATABASE_URL,
      MIGRATE: 'only',
      GRPC_HOST: '127.0.0.1',
      FORMS_GRPC_PORT: '0',
    };
    const out = await run(process.execPath, [join(ROOT, 'services/forms/dist/main.js')], { env, timeout: 30_000 });
    expect(out.stdout + out.stderr).toContain('migrations done (MIGRATE=only)');
  });
});

describe('observability', () => {
  it('passes the trace context from the gateway through every gRPC hop into the logs', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${t.baseUrl}/api/organization/${owner.organization.id}/`, {
      headers: { authorization: `JWT ${owner.access}`, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    // The gateway, projects (the workspace's projects) and auth (the workspace) log the same trace.
    for (const name of ['gateway', 'projects', 'auth']) {
      await expect
        .poll(() => readFileSync(join(t.logDir, `${name}.log`), 'utf8'), { timeout: 5000 })
        .toMatch(new RegExp(`traceId[=":]+${traceId}`));
    }
    // A malformed traceparent starts a new trace instead.
    const bad = await fetch(`${t.baseUrl}/api/organization/${owner.organization.id}/`, {
      headers: { authorization: `JWT ${owner.access}`, traceparent: 'nonsense' },
    });
    expect(bad.status).toBe(200);
  });

  it('serves request, ingestion and job metrics from every process', async () => {
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Metrics', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    const b = addBlock(newSchemaBody('S'), { en: 'Block' });
    const q = addItem(b.body, b.id, 'number', 'en', 'Count');
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } })).status,
    ).toBe(200);
    const up = await api('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: { sampler_schema: schema, response_id: `${p.id}-${schema}-1-m-1`, data: { '0': { [q.id]: 3 } } },
    });
    expect(up.status).toBe(201);
    const exp = await api<Json>('GET', `project/${p.id}/named_csv/`, { token: owner.access });
    expect(exp.status).toBe(200);

    const gateway = await scrape('gateway');
    expect(gateway).toMatch(
      /fieldwork_http_requests_total\{route="\/api\/project\/",method="POST",status="201",service="gateway"\} \d+/,
    );
    expect(gateway).toMatch(
      /fieldwork_http_request_duration_seconds_bucket\{le="0\.05",service="gateway",route="\/api\/project\/",method="POST"\} \d+/,
    );
    expect(gateway).toContain('process_resident_memory_bytes{service="gateway"}');
    for (const name of ['auth', 'projects', 'forms', 'responses', 'results', 'exports'] as const) {
      expect(await scrape(name), name).toMatch(
        new RegExp(
          `fieldwork_grpc_server_requests_total\\{method="/fieldwork\\.${name}\\.v1\\.\\w+/\\w+",code="OK",service="${name}"\\} \\d+`,
        ),
      );
    }
    expect(await scrape('auth')).toMatch(
      /fieldwork_grpc_server_duration_seconds_count\{[^}]*method="\/fieldwork\.auth\.v1\.AuthService\/Login"[^}]*\} 1/,
    );
    await expect
      .poll(() => scrape('results'), { timeout: 20_000 })
      .toMatch(/fieldwork_clickhouse_insert_rows_count\{[^}]*table="responses"[^}]*\} [1-9]/);
    expect(await scrape('exports')).toMatch(
      /fieldwork_jobs_finished_total\{kind="named_csv",status="done",service="exports"\} 1/,
    );
    expect(await scrape('exports')).toMatch(/fieldwork_job_rows_total\{kind="named_csv",service="exports"\} 1/);
    // Refusals are counted with their status code (an unknown project is refused by the access decision the gateway
    // asks for before the route's own call).
    expect((await api('GET', `project/999999/`, { token: owner.access })).status).toBe(404);
    expect(await scrape('projects')).toMatch(
      /fieldwork_grpc_server_requests_total\{method="\/fieldwork\.projects\.v1\.ProjectsService\/GetAccess",code="NOT_FOUND",service="projects"\} \d+/,
    );
    // Only /metrics is served there.
    expect((await fetch(`http://127.0.0.1:${t.metricsPorts.auth}/`)).status).toBe(404);
  }, 60_000);
});
