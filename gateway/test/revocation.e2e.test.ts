// Revocation (issue 18 item 6): a logout, a password change or reset, a stolen refresh token and a revoked API key stop
// the access tokens and keys they concern within seconds, on every gateway replica (the revocation list in NATS KV,
// watched by each gateway); a share link outlives a logout but not new credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { freePort, startChild, startTestStack, type Child, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let replica: Child;
let api2: Api;
let owner: Session;
const PASS = 'revocation pass 1';
let share: { path: string };

beforeAll(async () => {
  // Keys cached for a minute: a revoked key must stop through the list, not through the cache expiring.
  t = await startTestStack({ extraEnv: { API_KEY_CACHE_S: '60', REFRESH_REUSE_GRACE_S: '1' } });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  // A second gateway replica on the same services and NATS.
  const gateway = t.stack.children.get('gateway')!;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...gateway.env, GATEWAY_PORT: String(port) };
  delete env.METRICS_PORT;
  replica = startChild('gateway-2', gateway.command, gateway.args, env, () => undefined);
  await ready(port);
  api2 = client({ ...t, baseUrl: `http://127.0.0.1:${port}` });
  // A project with one question and one response, whose results can be shared.
  const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
  const n = addItem(b.body, b.id, 'number', 'en', 'Count');
  const p = (
    await api<Json>('POST', 'project/', {
      token: owner.access,
      body: { name: 'Revoked', organization_pk: owner.organization.id, geotag: point(1, 1) },
    })
  ).body;
  const schema = p.sampler_schemas[0].id as number;
  expect(
    (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...n.body, revision: 1 } })).status,
  ).toBe(200);
  expect(
    (
      await api('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: { sampler_schema: schema, response_id: `${p.id}-${schema}-1-r-1`, data: { '0': { [n.id]: 3 } } },
      })
    ).status,
  ).toBe(201);
  share = { path: `project/${p.id}/results/schema/${schema}/item/${n.id}/token/` };
  expect(
    (
      await api('POST', 'api/v1/organization-user/', {
        token: owner.access,
        body: { email: 'rev@example.org', password: PASS, organization: owner.organization.id, project_admin: true },
      })
    ).status,
  ).toBe(200);
}, 240_000);
afterAll(async () => {
  await replica?.stop();
  await t?.stop();
});

/** Resolves when the gateway on `port` answers /readyz with 200. */
async function ready(port: number): Promise<void> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    if ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200) return;
  }
  throw new Error(`the gateway on ${port} did not become ready`);
}

/** The status `path` answers with `token` on both gateways, once both agree (the list reaches them within moments). */
async function settles(token: string, status: number, path = 'organization/'): Promise<void> {
  for (const a of [api, api2])
    await expect
      .poll(async () => (await a('GET', path, { token })).status, { timeout: 3000, interval: 50 })
      .toBe(status);
}

describe('revocation', () => {
  it('stops the access token of a logged-out session on every gateway, and only that session’s', async () => {
    await acceptInvitation(t, api, 'rev@example.org', PASS);
    const one = await login(api, 'rev@example.org', PASS);
    const other = await login(api, 'rev@example.org', PASS);
    await settles(one.access, 200);
    expect((await api2('POST', 'accounts/logout/', { token: one.access, body: {} })).status).toBe(200);
    const started = Date.now();
    await settles(one.access, 401);
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await api('GET', 'organization/', { token: one.access })).body).toEqual({
      detail: 'Token is invalid or expired',
    });
    await settles(other.access, 200);
  });

  it('stops every session of the user when its password changes', async () => {
    const a = await login(api, 'rev@example.org', PASS);
    const b = await login(api, 'rev@example.org', PASS);
    expect(
      (
        await api('POST', 'accounts/user/rev@example.org/reset', {
          token: a.access,
          body: { old_password: PASS, new_password: 'a newer pass 22' },
        })
      ).status,
    ).toBe(200);
    await settles(a.access, 401);
    await settles(b.access, 401);
    // The new password's session works at once.
    const c = await login(api, 'rev@example.org', 'a newer pass 22');
    await settles(c.access, 200);
    expect(
      (
        await api('POST', 'accounts/user/rev@example.org/reset', {
          token: c.access,
          body: { old_password: 'a newer pass 22', new_password: PASS },
        })
      ).status,
    ).toBe(200);
    await settles(c.access, 401);
  });

  it('stops the access token of a session whose refresh token was presented again (stolen)', async () => {
    const s = await login(api, 'rev@example.org', PASS);
    const rotated = await api<Json>('POST', 'api-token-refresh/', { body: { refresh: s.refresh } });
    expect(rotated.status).toBe(200);
    await settles(rotated.body.access as string, 200);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await api('POST', 'api-token-refresh/', { body: { refresh: s.refresh } })).status).toBe(401);
    await settles(rotated.body.access as string, 401);
    await settles(s.access, 401);
    expect((await api('POST', 'api-token-refresh/', { body: { refresh: rotated.body.refresh } })).status).toBe(401);
  });

  it('stops a revoked API key at once, though the gateways cached it', async () => {
    const key = (
      await api<Json>('POST', `organization/${owner.organization.id}/api_keys/create/`, {
        token: owner.access,
        body: { name: 'leaky' },
      })
    ).body;
    await settles(key.key as string, 200, `organization/${owner.organization.id}/`);
    expect(
      (
        await api('PUT', `api/v0/organization/${owner.organization.id}/api_keys/revoke/`, {
          token: owner.access,
          body: { prefix: key.prefix },
        })
      ).status,
    ).toBe(200);
    await settles(key.key as string, 401, `organization/${owner.organization.id}/`);
  });

  it('keeps a share link through its sharer’s logout, and voids it when the sharer’s password changes', async () => {
    const s = await login(api, 'rev@example.org', PASS);
    const link = await api<Json>('POST', share.path, { token: s.access, body: {} });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const read = (a: Api) => a('POST', `item-results/${link.body.token}/`, { body: {} });
    expect((await read(api)).status).toBe(200);
    expect((await api('POST', 'accounts/logout/', { token: s.access, body: {} })).status).toBe(200);
    await settles(s.access, 401);
    expect((await read(api)).status).toBe(200);
    expect((await read(api2)).status).toBe(200);
    const again = await login(api, 'rev@example.org', PASS);
    await new Promise((r) => setTimeout(r, 1100));
    expect(
      (
        await api('POST', 'accounts/user/rev@example.org/reset', {
          token: again.access,
          body: { old_password: PASS, new_password: 'a newer pass 23' },
        })
      ).status,
    ).toBe(200);
    for (const a of [api, api2])
      await expect.poll(async () => (await read(a)).status, { timeout: 3000, interval: 50 }).toBe(404);
    // A link shared after the change works.
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await login(api, 'rev@example.org', 'a newer pass 23');
    const newer = await api<Json>('POST', share.path, { token: fresh.access, body: {} });
    expect((await api('POST', `item-results/${newer.body.token}/`, { body: {} })).status).toBe(200);
  });

  it('keeps what it knows when a gateway starts after the revocations were made', async () => {
    const s = await login(api, 'rev@example.org', 'a newer pass 23');
    expect((await api('POST', 'accounts/logout/', { token: s.access, body: {} })).status).toBe(200);
    await settles(s.access, 401);
    const gateway = t.stack.children.get('gateway')!;
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...gateway.env, GATEWAY_PORT: String(port) };
    delete env.METRICS_PORT;
    const late = startChild('gateway-3', gateway.command, gateway.args, env, () => undefined);
    try {
      await ready(port);
      expect(
        (await client({ ...t, baseUrl: `http://127.0.0.1:${port}` })('GET', 'organization/', { token: s.access }))
          .status,
      ).toBe(401);
    } finally {
      await late.stop();
    }
  });
});
