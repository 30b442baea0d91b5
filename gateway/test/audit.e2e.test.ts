// The audit log: security events recorded by every service (logins, failed logins, lockouts, API keys, project roles
// and permissions, exports, SQL access), read by workspace owners only, newest first, filterable; and no token, key
// or password in it or in any log.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, demoOwnerWithFeatures, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack({ extraEnv: { LOGIN_SLOWDOWN_MS: '1', LOGIN_SLOWDOWN_AFTER: '2' } });
  api = client(t);
  owner = await demoOwnerWithFeatures(t, api, ['ingestion']);
});
afterAll(async () => {
  await t?.stop();
});

describe('audit log', () => {
  it('records the security events of every service for the workspace owner, and never a secret', async () => {
    const org = owner.organization.id;
    // A failed login of the owner, then an unknown user slowed down.
    expect(
      (await api('POST', 'api-token-auth/', { body: { username: t.demo.username, password: 'wrong password' } }))
        .status,
    ).toBe(400);
    for (let i = 0; i < 3; i++)
      await api('POST', 'api-token-auth/', { body: { username: 'nobody@example.org', password: 'guess' } });
    // An API key made and revoked.
    const key = (
      await api<Json>('POST', `organization/${org}/api_keys/create/`, {
        token: owner.access,
        body: { name: 'BI export' },
      })
    ).body;
    expect(key.key).toMatch(/^fwk_/);
    expect(
      (
        await api('PUT', `api/v0/organization/${org}/api_keys/revoke/`, {
          token: owner.access,
          body: { prefix: key.prefix },
        })
      ).status,
    ).toBe(200);
    // A project user added, their permissions changed; an export; SQL access given and taken back.
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Audited', organization_pk: org, geotag: point(0, 0) },
      })
    ).body;
    const added = await api<Json>('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'audited.col@example.org', password: 'audited pass 1', projectId: p.id, collector: true },
    });
    expect(added.status).toBeLessThan(300);
    const colId = (added.body.user?.id ?? added.body.user_id ?? added.body.id) as number;
    expect(
      (
        await api('POST', 'project-users/permissions/', {
          token: owner.access,
          body: { projectId: p.id, userIds: [colId], permissions: ['researcher'] },
        })
      ).status,
    ).toBe(200);
    expect((await api('GET', `project/${p.id}/named_csv/`, { token: owner.access })).status).toBe(200);
    const grant = await api<Json>('POST', `project/${p.id}/postgres/`, { token: owner.access, body: {} });
    expect(grant.status).toBe(201);
    expect((await api('POST', `project/${p.id}/disable_postgres/`, { token: owner.access, body: {} })).status).toBe(
      200,
    );

    const log = await api<Json>('GET', `organization/${org}/audit/?page_size=100`, { token: owner.access });
    expect(log.status).toBe(200);
    const events = (log.body.results as Json[]).map((e) => e.event);
    for (const e of [
      'login',
      'login_failed',
      'api_key_created',
      'api_key_revoked',
      'project_user_added',
      'permissions_changed',
      'export_created',
      'sql_access_granted',
      'sql_access_revoked',
    ]) {
      expect(events, e).toContain(e);
    }
    // Newest first; each with its actor, target and time.
    const ids = (log.body.results as Json[]).map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const failed = (log.body.results as Json[]).find((e) => e.event === 'login_failed')!;
    expect(failed).toMatchObject({
      target: t.demo.username,
      ip: expect.stringMatching(/127\.0\.0\.1/),
      details: { failures: 1 },
    });
    expect((log.body.results as Json[]).find((e) => e.event === 'permissions_changed')).toMatchObject({
      actor_user_id: owner.user.id,
      target: `project ${p.id} user ${colId}`,
      details: { roles: ['researcher'] },
    });
    // The unknown user's failures belong to no workspace: not in this one's log.
    expect((log.body.results as Json[]).some((e) => e.target === 'nobody@example.org')).toBe(false);
    // A filter by kind; refusals.
    const only = await api<Json>('GET', `organization/${org}/audit/?event=api_key_created`, { token: owner.access });
    expect(only.body.results.map((e: Json) => e.event)).toEqual(['api_key_created']);
    expect((await api<Json>('GET', `organization/${org}/audit/?event=nope`, { token: owner.access })).status).toBe(400);
    await acceptInvitation(t, api, 'audited.col@example.org', 'audited pass 1');
    const col = await login(api, 'audited.col@example.org', 'audited pass 1');
    expect((await api('GET', `organization/${org}/audit/`, { token: col.access })).status).toBe(403);
    expect((await api('GET', `organization/${org}/audit/`, {})).status).toBe(401);

    // No secret anywhere: not in the audit log, not in any process's log.
    const secrets = [key.key, owner.access, owner.refresh, grant.body.password, t.demo.password, 'audited pass 1'];
    const everything =
      JSON.stringify(log.body) +
      readdirSync(t.logDir)
        .map((f) => readFileSync(join(t.logDir, f), 'utf8'))
        .join('\n');
    for (const s of secrets)
      expect(everything.includes(s as string), `a secret (${String(s).slice(0, 6)}…) leaked`).toBe(false);
  }, 120_000);
});
