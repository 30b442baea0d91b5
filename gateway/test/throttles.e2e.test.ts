// Throttles (issue 18 items 5, 14, 15): login attempts counted atomically per account (all its names) and per client
// address, slowed rather than locked, with the real client address; limits per address on the calls that need no
// login or send mail; mail to one person capped whatever the address; open responses mailed to the caller only.
// The gateway trusts 127.0.0.1 as a proxy here, so X-Forwarded-For plays different clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let db: postgres.Sql;
let owner: Session;
const PASS = 'throttle pass 12';
const from = (ip: string) => ({ 'x-forwarded-for': ip });

beforeAll(async () => {
  t = await startTestStack({
    extraEnv: {
      TRUSTED_PROXIES: '127.0.0.1',
      LOGIN_SLOWDOWN_AFTER: '5',
      LOGIN_SLOWDOWN_MS: '1000',
      LOGIN_MAX_DELAY_S: '2',
      LOGIN_ADDRESS_SLOWDOWN_AFTER: '10',
      RATE_LIMIT_LOOKUP_PER_MIN: '10',
      RATE_LIMIT_MAIL_PER_MIN: '5',
    },
  });
  api = client(t);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => undefined });
  owner = await login(api, t.demo.username, t.demo.password);
  expect(
    (
      await api('POST', 'api/v1/organization-user/', {
        token: owner.access,
        body: { email: 'victim@example.org', password: PASS, organization: owner.organization.id },
      })
    ).status,
  ).toBe(200);
  await acceptInvitation(t, api, 'victim@example.org', PASS);
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const attempt = (username: string, password: string, ip: string) =>
  api('POST', 'api-token-auth/', { body: { username, password }, headers: from(ip) });

describe('login throttling', () => {
  it('lets 5 of 60 parallel wrong logins reach the password check, counting the username and the email as one account', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        attempt(i % 2 === 0 ? 'victim@example.org' : 'VICTIM@example.org ', 'wrong guess', '203.0.113.5'),
      ),
    );
    const checked = answers.filter((a) => a.status === 400);
    expect(checked).toHaveLength(5);
    expect(checked[0]!.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    const slowed = answers.filter((a) => a.status === 429);
    expect(slowed).toHaveLength(55);
    expect(slowed[0]!.body.detail).toMatch(/^Too many failed login attempts\. Please try again in [12] seconds\.$/);
  });

  it('slows a stranger down without locking the owner out, and never for long', async () => {
    // The owner signed in before from their usual address: their attempts count apart from the stranger's.
    const victim = 'victim2@example.org';
    expect(
      (
        await api('POST', 'api/v1/organization-user/', {
          token: owner.access,
          body: { email: victim, password: PASS, organization: owner.organization.id },
        })
      ).status,
    ).toBe(200);
    await acceptInvitation(t, api, victim, PASS);
    expect((await attempt(victim, PASS, '198.51.100.10')).status).toBe(200);
    for (let i = 0; i < 8; i++) await attempt(victim, 'wrong guess', '203.0.113.6');
    expect((await attempt(victim, PASS, '203.0.113.6')).status).toBe(429);
    expect((await attempt(victim, PASS, '198.51.100.10')).status).toBe(200);
    // The stranger's delay is capped (LOGIN_MAX_DELAY_S): after it, the right password works from anywhere.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await attempt(victim, PASS, '203.0.113.6')).status).toBe(200);
  });

  it('slows one client address trying many accounts, and only that address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++)
      statuses.push((await attempt(`nobody${i}@example.org`, 'guess', '203.0.113.77')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toContain(429);
    expect((await attempt('nobody99@example.org', 'guess', '203.0.113.78')).status).toBe(400);
    // Good logins do not count against an address.
    for (let i = 0; i < 12; i++)
      expect((await attempt(t.demo.username, t.demo.password, '198.51.100.20')).status).toBe(200);
  });

  it('records the client address the trusted proxy forwarded in the audit log', async () => {
    expect((await attempt(t.demo.username, 'wrong password', '192.0.2.44')).status).toBe(400);
    const log = await api<Json>('GET', `organization/${owner.organization.id}/audit/?event=login_failed`, {
      token: owner.access,
    });
    expect(log.body.results[0]).toMatchObject({ target: t.demo.username, ip: '192.0.2.44' });
  });
});

describe('unauthenticated and mailing calls', () => {
  it('limits the email check per client address (it tells whether an account exists)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await api('POST', 'accounts/email-check/', {
            body: { email: `x${i}@example.org` },
            headers: from('203.0.113.90'),
          })
        ).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const refused = await api('POST', 'accounts/email-check/', {
      body: { email: 'y@example.org' },
      headers: from('203.0.113.90'),
    });
    expect(refused.body).toEqual({ detail: 'Too many requests. Please slow down.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      (await api('POST', 'accounts/email-check/', { body: { email: 'y@example.org' }, headers: from('203.0.113.91') }))
        .status,
    ).toBe(200);
  });

  it('limits password reset mails per address, and mails one person at most 3 times an hour from anywhere', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (
          await api('GET', 'accounts/user/victim@example.org/reset', {
            headers: from(`203.0.113.${100 + (i < 6 ? 0 : 1)}`),
          })
        ).status,
      );
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(200));
    expect(statuses[5]).toBe(429);
    expect(statuses[6]).toBe(200);
    const [mails] = await db<
      { n: number }[]
    >`select count(*)::int as n from auth.mail_outbox where to_address = 'victim@example.org' and subject like '%reset%'`;
    expect(mails!.n).toBe(3);
  });

  it('limits invitation requests and error reports per address, and records one address’s requests at most 3 times an hour', async () => {
    const invites: number[] = [];
    for (let i = 0; i < 6; i++)
      invites.push(
        (
          await api('POST', 'request-invite/', {
            body: { email: 'spam@example.org', name: 'S', organization: 'O' },
            headers: from('203.0.113.120'),
          })
        ).status,
      );
    expect(invites).toEqual([201, 201, 201, 201, 201, 429]);
    const [recorded] = await db<
      { n: number }[]
    >`select count(*)::int as n from auth.invite_requests where email = 'spam@example.org'`;
    expect(recorded!.n).toBe(3);
    const reports: number[] = [];
    for (let i = 0; i < 32; i++)
      reports.push(
        (
          await api('POST', 'error-reports/', {
            body: { message: 'x', severity: 'error' },
            headers: from('203.0.113.121'),
          })
        ).status,
      );
    expect(reports.filter((s) => s === 202)).toHaveLength(30);
    expect(reports.slice(30)).toEqual([429, 429]);
  });

  it('mails open responses to the caller’s own address only', async () => {
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Mailed', organization_pk: owner.organization.id, geotag: point(1, 1) },
      })
    ).body;
    expect(
      (
        await api('POST', `project/${p.id}/open-response/email/`, {
          token: owner.access,
          body: { send_to: 'anyone@elsewhere.test' },
        })
      ).body,
    ).toEqual({
      send_to: ['Open responses can only be mailed to your own address.'],
    });
    expect(
      (
        await api('POST', `project/${p.id}/open-response/email/`, {
          token: owner.access,
          body: { send_to: t.demo.email },
        })
      ).status,
    ).toBe(200);
    expect((await db`select 1 from auth.mail_outbox where to_address = 'anyone@elsewhere.test'`).length).toBe(0);
  });
});
