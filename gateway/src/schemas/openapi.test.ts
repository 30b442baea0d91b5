// Keeps the rule of issue 22: every route declares its request and its answers, so the OpenAPI document at
// /api/docs/json describes every body (and the web app's generated types, web/src/api/schema.d.ts, cover every call).
// A route added without a response schema, or a POST/PUT/PATCH without a body schema, fails here by name.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { buildGateway } from '../app.js';
import type { Clients } from '../clients.js';

type Media = Record<string, { schema?: unknown }>;
interface Operation {
  requestBody?: { required?: boolean; content?: Media };
  responses?: Record<string, { description?: string; content?: Media }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

/** The routes left out of the document on purpose: the orchestrator's probes and the document itself. */
const HIDDEN = ['GET /healthz', 'GET /readyz', 'GET /api/docs/json'];

let app: FastifyInstance;
let doc: Doc;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openapi-'));
  app = await buildGateway({
    clients: {} as Clients,
    log: createLogger('gateway', 'silent'),
    // With the fs object store, so that its file routes are in the document too.
    options: {
      jwtSecret: 'x'.repeat(32),
      bodyLimit: 1024 * 1024,
      corsOrigins: '',
      webDir: '',
      tls: false,
      files: { dir, secret: 'y'.repeat(32) },
    },
  });
  await app.ready();
  const r = await app.inject({ url: '/api/docs/json' });
  expect(r.statusCode).toBe(200);
  doc = r.json<Doc>();
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, method, op })),
  );
/** The paths a tree node such as /user/{id}|{email}/reset stands for. */
const alternatives = (path: string): string[] => {
  const m = /\{\w+\}(?:\|\{\w+\})+/.exec(path);
  if (!m) return [path];
  return m[0].split('|').flatMap((one) => alternatives(path.replace(m[0], one)));
};
const hasSchema = (content: Media | undefined) =>
  content !== undefined && Object.keys(content).length > 0 && Object.values(content).every((m) => m.schema);

describe('the OpenAPI document', () => {
  it('declares a 2xx answer with its schema for every operation (204: no content)', () => {
    const lacking = operations()
      .filter(({ op }) => {
        const ok = Object.entries(op.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
        return ok.length === 0 || ok.some(([status, r]) => status !== '204' && !hasSchema(r.content));
      })
      .map((o) => o.name);
    expect(lacking).toEqual([]);
  });

  it('declares the request body of every POST, PUT and PATCH (a call that reads none says so)', () => {
    const lacking = operations()
      .filter(({ method, op }) => ['post', 'put', 'patch'].includes(method) && !hasSchema(op.requestBody?.content))
      .map((o) => o.name);
    expect(lacking).toEqual([]);
  });

  it('leaves out only the probes and itself: every other route is in it', () => {
    // Fastify's own list of routes, a tree whose lines add a path's next part under their parent (HEAD and OPTIONS
    // are added by Fastify and the CORS plugin, never declared).
    const inDoc = new Set(operations().map((o) => o.name.replace(/\/$/, '')));
    const stack: string[] = [];
    const missing: string[] = [];
    for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
      if (!m) continue;
      const depth = m[1]!.length / 4;
      stack.length = depth;
      stack.push(m[2]!);
      const path = stack
        .join('')
        .replace(/\/$/, '')
        .replace(/:(\w+)/g, '{$1}');
      for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '' && x !== 'HEAD' && x !== 'OPTIONS')) {
        const name = `${method} ${path}`;
        // Routes that differ in a parameter's name only share a node (`{id}|{email}`): one of them is meant.
        const names = path.includes('|') ? alternatives(path).map((p) => `${method} ${p}`) : [name];
        if (!names.some((n) => inDoc.has(n) || HIDDEN.includes(n))) missing.push(name);
      }
    }
    expect(missing).toEqual([]);
    expect(inDoc.size).toBeGreaterThan(100);
    for (const route of HIDDEN) {
      const [method, url] = route.split(' ') as [string, string];
      expect(app.hasRoute({ method, url }), route).toBe(true);
      expect(doc.paths[url], route).toBeUndefined();
    }
  });

  it('names the answers as they are sent: 204 for deletes, files in their own type, jobs as the Job record', () => {
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    for (const path of ['/api/project/{id}/sites/{sub}/', '/api/project/{id}/users/{userId}/']) {
      expect(Object.keys(op(path, 'delete')?.responses ?? {}), path).toEqual(['204']);
    }
    expect(Object.keys(op('/api/samplerschema/{id}/xlsform/', 'get')?.responses?.['200']?.content ?? {})).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(op('/api/exports/jobs/{jobId}/', 'get')?.responses?.['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Job',
    });
    expect(Object.keys(op('/api/project/{id}/named_csv/', 'get')?.responses ?? {})).toEqual(['200', '202']);
    // A body that may be left out (its schema takes null) is not required; a login's is.
    expect(op('/api/exports/jobs/{jobId}/cancel/', 'post')?.requestBody?.required).toBe(false);
    expect(op('/api/project/{id}/groups/', 'post')?.requestBody?.required).toBe(false);
    expect(op('/api/api-token-auth/', 'post')?.requestBody?.required).toBe(true);
  });
});
