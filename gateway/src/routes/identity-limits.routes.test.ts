// The identity routes under the deployment's default rate limits (gateway/src/config.ts), not the lifted ones of the
// other route tests: the providers list every sign-in page asks for is held to the sign-in rate, not the email
// lookups' 10 a minute (an office behind one address lost its provider buttons to 429s).
import { afterAll, expect, it } from 'vitest';
import { buildTestGateway } from '../testing/inject.js';

const t = await buildTestGateway({ rateLimits: { login: 100, lookup: 10, mail: 5, reports: 30 } });
afterAll(() => t.close());

it('GET oauth/providers/ answers 30 sign-in pages from one address in a minute', async () => {
  const codes = [];
  for (let i = 0; i < 30; i++)
    codes.push((await t.inject({ url: '/api/api/v1/oauth/providers/', remoteAddress: '203.0.113.7' })).statusCode);
  expect(codes).toEqual(new Array(30).fill(200));
});

it('POST accounts/email-check/ stays at 10 a minute per address', async () => {
  const codes = [];
  for (let i = 0; i < 11; i++)
    codes.push(
      (
        await t.inject({
          method: 'POST',
          url: '/api/accounts/email-check/',
          payload: { email: 'a@example.org' },
          remoteAddress: '203.0.113.8',
        })
      ).statusCode,
    );
  expect(codes.slice(0, 10).every((c) => c !== 429)).toBe(true);
  expect(codes[10]).toBe(429);
});
