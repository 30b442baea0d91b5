// Security (issue 9 §3): the headers of the API and of the web app (CSP with frame-ancestors, nosniff, HSTS only
// when TLS is terminated in front), why CSRF cannot work with the JWT header scheme (no cookie is ever set, a cookie is
// never read, cross-site "simple" requests are refused and change nothing, CORS grants no other origin), the password
// policy and the expiry of password reset links. The browser side of CSRF is browser scenario 10.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { freePort, startChild, startTestStack, type TestStack } from '@fieldwork/launcher';
import { client, latestMail, login, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;
let db: postgres.Sql;
let owner: Session;
const EVIL = 'https://evil.example';

beforeAll(async () => {
  t = await startTestStack({ extraEnv: { RESET_LINK_TTL_S: '3' } });
  api = client(t);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => undefined });
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

describe('security headers', () => {
  it('puts a CSP refusing framing, nosniff and a referrer policy on API answers, errors and every web app file, and no HSTS over plain HTTP', async () => {
    const index = await (await fetch(`${t.baseUrl}/`)).text();
    const asset = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(asset, 'the web app references its bundle').toBeTruthy();
    for (const path of [
      '/',
      '/projects',
      '/login-home/login',
      asset!,
      '/api/organization/',
      '/api/nope/',
      '/healthz',
    ]) {
      const res = await fetch(`${t.baseUrl}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
      expect(res.headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it('adds HSTS when TLS is terminated in front of the gateway (TLS_TERMINATED)', async () => {
    const gateway = t.stack.children.get('gateway')!;
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...gateway.env, GATEWAY_PORT: String(port), TLS_TERMINATED: 'true' };
    delete env.METRICS_PORT;
    const tls = startChild('gateway-tls', gateway.command, gateway.args, env, () => undefined);
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, {
          timeout: 30_000,
          interval: 200,
        })
        .toBe(200);
      for (const path of ['/', '/api/organization/']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      }
    } finally {
      await tls.stop();
    }
  });
});

describe('CSRF with the JWT header scheme', () => {
  const projectCount = async () => (await db<{ n: number }[]>`select count(*)::int as n from projects.projects`)[0]!.n;

  it('never sets a cookie: logging in and refreshing answer tokens in the body only', async () => {
    const res = await api<{ refresh: string }>('POST', 'api-token-auth/', {
      body: { username: t.demo.username, password: t.demo.password },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const refreshed = await api('POST', 'api-token-refresh/', { body: { refresh: res.body.refresh } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('set-cookie')).toBeNull();
  });

  it('refuses what another site can make a browser send (form posts, cookies, no Authorization) and changes nothing', async () => {
    const before = await projectCount();
    const cookie = `jwt=${owner.access}; access=${owner.access}; token=${owner.access}`;
    const json = JSON.stringify({
      name: 'CSRF',
      organization_pk: owner.organization.id,
      geotag: { type: 'Point', coordinates: [0, 0] },
    });
    const simple: [string, string | FormData][] = [
      ['application/x-www-form-urlencoded', `name=CSRF&organization_pk=${owner.organization.id}`],
      ['text/plain', json],
      [
        'multipart/form-data',
        (() => {
          const f = new FormData();
          f.set('name', 'CSRF');
          return f;
        })(),
      ],
    ];
    for (const [type, body] of simple) {
      const headers: Record<string, string> = { origin: EVIL, cookie, referer: `${EVIL}/attack` };
      if (typeof body === 'string') headers['content-type'] = type;
      const res = await fetch(`${t.baseUrl}/api/project/`, { method: 'POST', headers, body });
      // Refused as a body that is not JSON (400/415) or as a request without credentials (401): never acted on.
      expect([400, 401, 415], `${type}: ${res.status}`).toContain(res.status);
      expect(res.headers.get('access-control-allow-origin'), type).toBeNull();
    }
    // With a valid token, a text/plain body is still not JSON: refused before any handler.
    const plain = await fetch(`${t.baseUrl}/api/project/`, {
      method: 'POST',
      headers: { authorization: `JWT ${owner.access}`, 'content-type': 'text/plain' },
      body: json,
    });
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.status).toBeLessThan(500);
    // A logout, a password change and an API key, as simple cross-site requests: all refused.
    for (const path of [
      'accounts/logout/',
      `accounts/user/${t.demo.email}/reset`,
      `organization/${owner.organization.id}/api_keys/create/`,
    ]) {
      const res = await fetch(`${t.baseUrl}/api/${path}`, {
        method: 'POST',
        headers: { origin: EVIL, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'new_password=owned&name=evil',
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
    expect(await projectCount()).toBe(before);
    expect((await db`select 1 from auth.api_keys where name = 'evil'`).length).toBe(0);
    expect(
      (await api('POST', 'api-token-auth/', { body: { username: t.demo.username, password: t.demo.password } })).status,
    ).toBe(200);
  });

  it('grants no other origin through CORS: no preflight passes, no answer is readable', async () => {
    const preflight = await fetch(`${t.baseUrl}/api/project/`, {
      method: 'OPTIONS',
      headers: {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const read = await fetch(`${t.baseUrl}/api/organization/`, {
      headers: { origin: EVIL, authorization: `JWT ${owner.access}` },
    });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(read.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('passwords', () => {
  it('refuses weak and common passwords with the policy messages', async () => {
    // The person chooses it, with the link their invitation mailed (a password sent by whoever invites them is not used).
    const email = 'policy.tester@example.org';
    const invited = await api('POST', 'api/v1/organization-user/', {
      token: owner.access,
      body: { email, first_name: 'P', last_name: 'Q', password: 'short', organization: owner.organization.id },
    });
    expect(invited.status).toBe(200);
    const mail = await latestMail(t, email, 'invitation');
    const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail)![1]!;
    const choose = (password: string) => api('POST', `accounts/user/${email}/reset`, { body: { nonce, password } });
    const cases: [string, string][] = [
      ['short', 'This password is too short. It must contain at least 8 characters.'],
      ['1234567890', 'This password is entirely numeric.'],
      ['policy.tester', 'The password is too similar to the username.'],
      ['x'.repeat(129), 'This password is too long. It must contain at most 128 characters.'],
      ['Password123', 'This password is too common.'],
    ];
    for (const [password, message] of cases) {
      const res = await choose(password);
      expect(res.status, password).toBe(400);
      expect(JSON.stringify(res.body), password).toContain(message);
    }
    expect((await db`select 1 from auth.users where email = ${email} and password_hash is not null`).length).toBe(0);
    expect((await choose('a long enough pass 7')).status).toBe(200);
  });

  it('lets a reset link expire after RESET_LINK_TTL_S, use it once within, and end every session of the user', async () => {
    const email = 'policy.tester@example.org';
    const nonceOf = async () => {
      const [mail] = await db<
        { body: string }[]
      >`select body from auth.mail_outbox where to_address = ${email} and subject like '%reset%' order by id desc limit 1`;
      return /reset-password\/[^/\s]+\/([\w-]+)/.exec(mail!.body)![1]!;
    };
    const session = await login(api, email, 'a long enough pass 7');
    expect((await api('GET', `accounts/user/${email}/reset`)).status).toBe(200);
    const stale = await nonceOf();
    await new Promise((r) => setTimeout(r, 3500));
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { nonce: stale, password: 'an expired attempt 1' } }))
        .body,
    ).toEqual({
      non_field_errors: ['This password reset link is invalid or has expired.'],
    });
    expect((await api('GET', `accounts/user/${email}/reset`)).status).toBe(200);
    const fresh = await nonceOf();
    expect(fresh).not.toBe(stale);
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { nonce: fresh, password: 'short' } })).status,
    ).toBe(400);
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { nonce: fresh, password: 'a fresh good pass 8' } }))
        .status,
    ).toBe(200);
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { nonce: fresh, password: 'used twice pass 9' } }))
        .status,
    ).toBe(400);
    // The session from before the reset is over: its refresh token no longer works.
    expect((await api('POST', 'api-token-refresh/', { body: { refresh: session.refresh } })).status).toBe(401);
    expect(
      (await api('POST', 'api-token-auth/', { body: { username: email, password: 'an expired attempt 1' } })).status,
    ).toBe(400);
    expect(
      (await api('POST', 'api-token-auth/', { body: { username: email, password: 'a fresh good pass 8' } })).status,
    ).toBe(200);
  });
});
