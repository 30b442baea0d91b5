// The whole stack started by the launcher's code, driven over HTTP exactly as a client would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let t: TestStack;
let db: postgres.Sql;

beforeAll(async () => {
  t = await startTestStack({ extraEnv: { LOGIN_SLOWDOWN_AFTER: '5', LOGIN_SLOWDOWN_MS: '60000' } });
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const res = await fetch(`${t.baseUrl}/api/${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `JWT ${options.token}` } : {}),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as T, headers: res.headers };
}

async function loginDemo() {
  const r = await api<{ access: string; refresh: string; user: { id: number }; organization: { id: number } }>(
    'POST',
    'api-token-auth/',
    {
      body: { username: t.demo.username, password: t.demo.password },
    },
  );
  expect(r.status).toBe(200);
  return r.body;
}

describe('process endpoints', () => {
  it('answers /healthz and /readyz with every service SERVING', async () => {
    expect(await (await fetch(`${t.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${t.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      services: {
        auth: 'SERVING',
        projects: 'SERVING',
        forms: 'SERVING',
        responses: 'SERVING',
        results: 'SERVING',
        exports: 'SERVING',
      },
    });
  });

  it('publishes its OpenAPI document with the spec paths', async () => {
    const doc = (await (await fetch(`${t.baseUrl}/api/docs/json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of [
      '/api/api-token-auth/',
      '/api/api-token-refresh/',
      '/api/accounts/user/{id}/',
      '/api/organization/{id}/',
      '/api/api/v1/organization-user/',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    // The upload's multipart body: one binary field, its limit named.
    expect(doc.paths['/api/project/{id}/upload/']).toMatchObject({
      post: {
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: { type: 'string', format: 'binary', description: expect.stringContaining('50 MB') },
                },
              },
            },
          },
        },
      },
    });
  });

  it('gives every answer a request id, and echoes a valid one it was sent', async () => {
    const mine = await api('GET', 'organization/', { headers: { 'x-request-id': 'client-req-000001' } });
    expect(mine.headers.get('x-request-id')).toBe('client-req-000001');
    const made = await api('GET', 'organization/', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('login and session', () => {
  it('logs in with a lower-cased, trimmed username and a trimmed password', async () => {
    const r = await api<{ access: string; user: Record<string, unknown>; organization: Record<string, unknown> }>(
      'POST',
      'api-token-auth/',
      {
        body: { username: ' DEMO ', password: ` ${t.demo.password} ` },
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({
      username: 'demo',
      email: 'demo@example.com',
      settings: { agreed_terms: '', agreed_privacy: '' },
    });
    expect(r.body.organization).toMatchObject({ name: 'Demo Workspace' });
  });

  it('answers failures with the spec bodies', async () => {
    const wrong = await api('POST', 'api-token-auth/', { body: { username: 'demo', password: 'wrong password' } });
    expect(wrong).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Unable to log in with provided credentials.'] },
    });
    const blank = await api('POST', 'api-token-auth/', { body: { username: '', password: '' } });
    expect(blank).toMatchObject({
      status: 400,
      body: { username: ['This field may not be blank.'], password: ['This field may not be blank.'] },
    });
    const missing = await api('POST', 'api-token-auth/', { body: {} });
    expect(missing).toMatchObject({
      status: 400,
      body: { username: ['This field is required.'], password: ['This field is required.'] },
    });
    const malformed = await api('POST', 'api-token-auth/', { body: '{"username": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toHaveProperty('non_field_errors');
    const typed = await api('POST', 'api-token-auth/', { body: { username: 42, password: ['x'] } });
    expect(typed).toMatchObject({
      status: 400,
      body: { username: ['Expected string.'], password: ['Expected string.'] },
    });
  });

  it('slows a username down after repeated failures with a 429 detail (issue 18: slowed, never locked out)', async () => {
    for (let i = 0; i < 5; i++)
      await api('POST', 'api-token-auth/', { body: { username: 'someone-else', password: 'guess' } });
    const r = await api('POST', 'api-token-auth/', { body: { username: 'someone-else', password: 'guess' } });
    expect(r).toMatchObject({
      status: 429,
      body: { detail: expect.stringMatching(/^Too many failed login attempts\. Please try again in \d+ seconds\.$/) },
    });
  });

  it('refuses requests without or with a bad token with 401 and a detail', async () => {
    expect(await api('GET', 'organization/')).toMatchObject({
      status: 401,
      body: { detail: 'Authentication credentials were not provided.' },
    });
    expect(await api('GET', 'organization/', { token: 'abc.def.ghi' })).toMatchObject({
      status: 401,
      body: { detail: 'Token is invalid or expired' },
    });
    const bearer = await api('GET', 'organization/', {
      headers: { authorization: `Bearer ${(await loginDemo()).access}` },
    });
    expect(bearer.status).toBe(401);
  });

  it('rotates refresh tokens and revokes the session on logout', async () => {
    const s = await loginDemo();
    const r1 = await api<{ access: string; refresh: string }>('POST', 'api-token-refresh/', {
      body: { refresh: s.refresh },
    });
    expect(r1.status).toBe(200);
    // The same token again at once, as a phone does whose first answer was lost: the successor already issued, not a
    // pair of its own (issue 30 item 3).
    const r2 = await api<{ access: string; refresh: string }>('POST', 'api-token-refresh/', {
      body: { refresh: s.refresh },
    });
    expect(r2.status).toBe(200);
    expect(r2.body.refresh).toBe(r1.body.refresh);
    const r3 = await api<{ access: string; refresh: string }>('POST', 'api-token-refresh/', {
      body: { refresh: r2.body.refresh },
    });
    expect(r3.status).toBe(200);
    const out = await api('POST', 'accounts/logout/', { token: r3.body.access, body: { refresh: r3.body.refresh } });
    expect(out).toMatchObject({ status: 200, body: { detail: 'Successfully logged out.' } });
    expect((await api('POST', 'api-token-refresh/', { body: { refresh: r3.body.refresh } })).status).toBe(401);
  });
});

describe('users', () => {
  it('reads, renames and records terms and privacy acceptance', async () => {
    const s = await loginDemo();
    const id = s.user.id;
    expect(await api('GET', `accounts/user/${id}/`, { token: s.access })).toMatchObject({
      status: 200,
      body: { id, username: 'demo' },
    });
    const patched = await api('PATCH', `accounts/user/${id}/`, {
      token: s.access,
      body: { first_name: 'Dee', last_name: 'Moe' },
    });
    expect(patched).toMatchObject({ status: 200, body: { first_name: 'Dee', last_name: 'Moe', name: 'Dee Moe' } });
    const terms = await api('PUT', `accounts/user/${id}/settings`, { token: s.access, body: { agreed_terms: '1.1' } });
    expect(terms).toMatchObject({ status: 200, body: { settings: { agreed_terms: '1.1' } } });
    const bad = await api('PUT', `accounts/user/${id}/settings`, { token: s.access, body: { agreed_privacy: '9' } });
    expect(bad).toMatchObject({
      status: 400,
      body: { agreed_privacy: ['Unknown version. The current version is 1.0.'] },
    });
    expect(await api('GET', 'accounts/user/abc/', { token: s.access })).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });
    await api('PATCH', `accounts/user/${id}/`, { token: s.access, body: { first_name: 'Demo', last_name: 'User' } });
  });

  it('resets a password from the mailed link (the mail is in the log in single-machine mode)', async () => {
    const s = await loginDemo();
    const created = await api<{ user: number }>('POST', 'api/v1/organization-user/', {
      token: s.access,
      body: {
        email: 'Field.Worker@Example.org',
        first_name: 'Field',
        last_name: 'Worker',
        password: 'first password 1',
        organization: s.organization.id,
      },
    });
    expect(created).toMatchObject({
      status: 200,
      body: { username: 'field.worker@example.org', organization: s.organization.id },
    });
    await acceptInvitation(t, api as never, 'Field.Worker@Example.org', 'first own password 1');

    expect(await api('GET', 'accounts/user/field.worker@example.org/reset')).toMatchObject({ status: 200 });
    const [mail] =
      await db`select body from auth.mail_outbox where to_address = 'Field.Worker@Example.org' and subject like '%reset%' order by id desc limit 1`;
    const [, email, nonce] = /reset-password\/([^/\s]+)\/([\w-]+)/.exec(String(mail!.body))!;
    // The log transport wrote the same link to the auth service's log.
    await expect.poll(() => readFileSync(join(t.logDir, 'auth.log'), 'utf8'), { timeout: 5000 }).toContain(nonce!);

    const done = await api('POST', `accounts/user/${email}/reset`, { body: { nonce, password: 'second password 2' } });
    expect(done).toMatchObject({ status: 200 });
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { nonce, password: 'third password 3' } })).body,
    ).toEqual({
      non_field_errors: ['This password reset link is invalid or has expired.'],
    });
    const login = await api<{ access: string }>('POST', 'api-token-auth/', {
      body: { username: 'field.worker@example.org', password: 'second password 2' },
    });
    expect(login.status).toBe(200);

    const missing = await api('POST', `accounts/user/${email}/reset`, {
      token: login.body.access,
      body: { new_password: 'x new password' },
    });
    expect(missing).toMatchObject({
      status: 400,
      body: {
        non_field_errors: ['Missing credentials! Please use the forgot password link on Login to change password.'],
      },
    });
    const changed = await api('POST', `accounts/user/${email}/reset`, {
      token: login.body.access,
      body: { new_password: 'fourth password 4', old_password: 'second password 2' },
    });
    expect(changed.status).toBe(200);
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { new_password: 'a', old_password: 'b' } })).status,
    ).toBe(401);
  });

  it('checks emails and takes invitation requests', async () => {
    expect(await api('POST', 'accounts/email-check/', { body: { email: 'demo@example.com' } })).toMatchObject({
      status: 200,
      body: { exists: true },
    });
    expect(await api('POST', 'accounts/email-check/', { body: { email: 'no' } })).toMatchObject({
      status: 400,
      body: { email: ['Enter a valid email address.'] },
    });
    expect(
      (await api('POST', 'request-invite/', { body: { email: 'a@acme.test', name: 'A', organization: 'Acme' } }))
        .status,
    ).toBe(201);
    expect((await api('POST', 'organization-match/', { body: { org_email: 'x@acme.test' } })).status).toBe(200);
  });
});

describe('workspaces', () => {
  it('lists the workspaces and opens one with its projects', async () => {
    const s = await loginDemo();
    const list = await api<{ results: { id: number; name: string }[]; count: number }>('GET', 'organization/', {
      token: s.access,
    });
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]!.name).toBe('Demo Workspace');
    const org = await api<{ projects: number[]; project_details: Record<string, unknown>[] }>(
      'GET',
      `organization/${s.organization.id}/`,
      { token: s.access },
    );
    expect(org.status).toBe(200);
    expect(org.body.projects).toHaveLength(2);
    expect(org.body.project_details.map((p) => p.name).sort()).toEqual(['Household Survey', 'Water Points']);
    expect(org.body.project_details[0]).toMatchObject({
      project_state: 'P',
      project_type: 'S',
      geotag: { type: 'Point', coordinates: [expect.any(Number), expect.any(Number)] },
      folder_id: null,
    });
  });

  it('creates and renames a workspace; foreign or unknown ids answer "Invalid Organization Id!"', async () => {
    const s = await loginDemo();
    const created = await api<{ id: number; organizationuser_set: { owner: boolean }[] }>('POST', 'organization/', {
      token: s.access,
      body: { name: 'Second Workspace' },
    });
    expect(created.status).toBe(201);
    expect(created.body.organizationuser_set[0]!.owner).toBe(true);
    const renamed = await api('PUT', `organization/${created.body.id}/`, {
      token: s.access,
      body: { name: 'Renamed Workspace' },
    });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Renamed Workspace' } });
    expect(await api('GET', 'organization/999999/', { token: s.access })).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Organization Id!' },
    });
    expect(await api('GET', 'organization/abc/', { token: s.access })).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Organization Id!' },
    });
  });
});

describe('limits and unknown paths', () => {
  it('refuses an oversized body with 413 and unknown API paths with 404 JSON', async () => {
    // The server answers 413 before the body is sent and may close the socket under the writer (EPIPE): read the
    // answer with node:http, which delivers it whatever happens to the write.
    const payload = JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024), password: 'y' });
    const big = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to the oversized body')), 10_000);
      const req = request(
        `${t.baseUrl}/api/api-token-auth/`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
          });
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e);
      });
      req.end(payload);
    });
    expect(big).toMatchObject({ status: 413, body: { detail: 'Request body is too large.' } });
    expect(await api('GET', 'no/such/route/')).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
  });

  it('accepts client error reports and answers with a reference', async () => {
    const r = await api('POST', 'error-reports/', {
      body: { hashId: 'abc123', message: 'boom', severity: 'error', location: '/projects' },
    });
    expect(r).toMatchObject({ status: 202, body: { reference: 'abc123' } });
  });
});

describe('operator CLI', () => {
  const cli = (...args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts/dist/cli.js'), ...args], {
        env: {
          PATH: process.env.PATH,
          AUTH_GRPC_ADDR: `127.0.0.1:${t.ports.auth}`,
          PROJECTS_GRPC_ADDR: `127.0.0.1:${t.ports.projects}`,
          RESULTS_GRPC_ADDR: `127.0.0.1:${t.ports.results}`,
          CONTEXT_SIGNING_SECRET: t.contextSecret,
        },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });

  it('creates a user and a workspace, and resets a password, for a user who then logs in', async () => {
    const made = await cli(
      'user',
      'create',
      '--email',
      'Operator.Made@Example.org',
      '--password',
      'operator pass 1',
      '--first-name',
      'Op',
    );
    expect(made).toMatchObject({ code: 0, out: expect.stringContaining('created user operator.made@example.org') });
    const ws = await cli('workspace', 'create', '--name', 'Ops Workspace', '--owner', 'operator.made@example.org');
    expect(ws).toMatchObject({ code: 0, out: expect.stringContaining('created workspace "Ops Workspace"') });
    expect(
      await cli('user', 'set-password', '--username', 'operator.made@example.org', '--password', 'operator pass 2'),
    ).toMatchObject({ code: 0 });
    const login = await api<{ organization: { name: string } }>('POST', 'api-token-auth/', {
      body: { username: 'operator.made@example.org', password: 'operator pass 2' },
    });
    expect(login).toMatchObject({ status: 200, body: { organization: { name: 'Ops Workspace' } } });
  });

  it('switches workspace feature flags: ingestion opens projectLevelIngestion', async () => {
    const s = await loginDemo();
    const project = (
      await api<{ projects: number[] }>('GET', `organization/${s.organization.id}/`, { token: s.access })
    ).body.projects[0]!;
    const before = await api<{ permissions: string[] }>('GET', `project/${project}/`, { token: s.access });
    expect(before.body.permissions).not.toContain('projectLevelIngestion');
    expect(
      await cli('workspace', 'features', '--id', String(s.organization.id), '--enable', 'ingestion'),
    ).toMatchObject({
      code: 0,
      out: expect.stringContaining('features: ingestion'),
    });
    expect(
      (await api<{ flagged_features: string[] }>('GET', `organization/${s.organization.id}/`, { token: s.access })).body
        .flagged_features,
    ).toEqual(['ingestion']);
    const after = await api<{ permissions: string[] }>('GET', `project/${project}/`, { token: s.access });
    expect(after.body.permissions).toContain('projectLevelIngestion');
    await cli('workspace', 'features', '--id', String(s.organization.id), '--disable', 'ingestion');
  });

  it('reports the results store and rebuilds it from the stream', async () => {
    expect(await cli('results', 'status')).toMatchObject({
      code: 0,
      out: expect.stringMatching(/responses \d+ \(deleted \d+\), answers \d+, pending on the stream \d+/),
    });
    expect(await cli('results', 'rebuild')).toMatchObject({
      code: 0,
      out: expect.stringMatching(/rebuilding the results store: replaying \d+ stream messages/),
    });
  });

  it('explains refusals and bad usage with non-zero exit codes', async () => {
    expect(
      await cli('user', 'create', '--email', 'operator.made@example.org', '--password', 'operator pass 3'),
    ).toMatchObject({
      code: 1,
      out: expect.stringContaining('refused: A user with this username or email already exists.'),
    });
    expect(await cli('user', 'create', '--email', 'x@example.org')).toMatchObject({
      code: 64,
      out: expect.stringContaining('--password is required'),
    });
    expect(await cli('user', 'set-password', '--username', 'nobody', '--password', 'whatever 123')).toMatchObject({
      code: 1,
      out: expect.stringContaining('No user has this username.'),
    });
  });
});

describe('shutdown', () => {
  it('stops every service and the gateway cleanly on SIGTERM (exit code 0)', async () => {
    const codes = await Promise.all(
      [...t.stack.children.values()].map(async (child) => {
        await child.stop(10_000);
        return [child.name, await child.exited];
      }),
    );
    expect(Object.fromEntries(codes)).toEqual({
      auth: 0,
      projects: 0,
      forms: 0,
      responses: 0,
      results: 0,
      exports: 0,
      gateway: 0,
    });
  });
});
