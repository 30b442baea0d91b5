// Sign-in through an identity provider over HTTP on the whole stack, as a client does it: a real OpenID provider
// (oidc-provider, started with the stack by startTestStack({ oidc: true })), the provider's own screens gone
// through without a browser (signInAtProvider), the code exchanged at oauth/code/ for the platform's JWT pair, which
// then works on the API; a reused code, a wrong verifier and a wrong state refused with their messages.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { signInAtProvider } from '@fieldwork/launcher/test-oidc-provider';
import { client, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;

beforeAll(async () => {
  t = await startTestStack({ oidc: true });
  api = client(t);
}, 180_000);

afterAll(async () => {
  await t?.stop();
});

async function toProvider(login: string) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const started = await api<{ authorization_url: string; state: string }>('POST', 'api/v1/oauth/authorize/', {
    body: { identity_provider: 'testidp', code_challenge: challenge },
  });
  expect(started.status).toBe(200);
  const back = await signInAtProvider(started.body.authorization_url, login, `${t.baseUrl}/login-home/oauth`);
  return {
    verifier,
    code: back.searchParams.get('code')!,
    state: back.searchParams.get('state')!,
    iss: back.searchParams.get('iss') ?? '',
  };
}

describe('sign-in through an identity provider', () => {
  it('lists the provider and that sign-up is open', async () => {
    const r = await api('GET', 'api/v1/oauth/providers/');
    expect(r.body).toEqual({
      results: [{ id: 'testidp', name: 'Test Identity Provider' }],
      count: 1,
      signup_enabled: true,
    });
  });

  it("signs the demo user in with the provider's code and the verifier; the tokens work on the API", async () => {
    const r = await toProvider(t.demo.email);
    const signed = await api<Session>('POST', 'api/v1/oauth/code/', {
      body: { code: r.code, code_verifier: r.verifier, identity_provider: 'testidp', state: r.state, iss: r.iss },
    });
    expect(signed.status).toBe(200);
    expect(signed.body.user).toMatchObject({ id: t.demo.userId, email: t.demo.email });
    const me = await api('GET', `accounts/user/${t.demo.userId}/`, { token: signed.body.access });
    expect(me.status).toBe(200);
    const refreshed = await api('POST', 'api-token-refresh/', { body: { refresh: signed.body.refresh } });
    expect(refreshed.status).toBe(200);

    // The same code again: the state is spent.
    const again = await api('POST', 'api/v1/oauth/code/', {
      body: { code: r.code, code_verifier: r.verifier, identity_provider: 'testidp', state: r.state, iss: r.iss },
    });
    expect([again.status, again.body]).toEqual([
      400,
      { non_field_errors: ['This sign-in has expired or was already used. Please sign in again.'] },
    ]);
  });

  it('refuses a wrong verifier and a wrong state with their messages (audited: services/auth identity.service.test)', async () => {
    const r = await toProvider(t.demo.email);
    const wrongState = await api('POST', 'api/v1/oauth/code/', {
      body: { code: r.code, code_verifier: r.verifier, identity_provider: 'testidp', state: `${r.state}x` },
    });
    expect([wrongState.status, wrongState.body]).toEqual([
      400,
      { non_field_errors: ['This sign-in has expired or was already used. Please sign in again.'] },
    ]);
    const wrongVerifier = await api('POST', 'api/v1/oauth/code/', {
      body: {
        code: r.code,
        code_verifier: randomBytes(32).toString('base64url'),
        identity_provider: 'testidp',
        state: r.state,
      },
    });
    expect([wrongVerifier.status, wrongVerifier.body]).toEqual([
      400,
      {
        non_field_errors: [
          'The sign-in could not be verified (the code verifier does not match). Please sign in again.',
        ],
      },
    ]);
  });
});
