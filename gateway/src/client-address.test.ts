// The client address the gateway hands to the services (audit log, login and per-address limits): the connection's,
// unless the connection comes from a proxy listed in TRUSTED_PROXIES. Through app.inject on the whole gateway, with a
// fake auth client that records what the login call carried.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { problems } from '@fieldwork/service-kit/problems';
import { buildGateway, trustedProxies } from './app.js';
import type { Clients } from './clients.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The client_ip the login call carried, for a request from `remoteAddress` with `X-Forwarded-For: forwarded`. */
async function loginIp(proxies: string | undefined, remoteAddress: string, forwarded: string): Promise<string> {
  let seen = '';
  const clients = {
    auth: {
      login: async (req: { client_ip: string }) => {
        seen = req.client_ip;
        throw problems.loginFailed();
      },
    },
  } as unknown as Clients;
  app = await buildGateway({
    clients,
    log: createLogger('gateway', 'silent'),
    options: {
      jwtSecret: 'x'.repeat(32),
      bodyLimit: 1024 * 1024,
      corsOrigins: '',
      webDir: '',
      tls: false,
      trustedProxies: proxies,
    },
  });
  const r = await app.inject({
    method: 'POST',
    url: '/api/api-token-auth/',
    remoteAddress,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
    payload: { username: 'demo', password: 'wrong' },
  });
  expect(r.statusCode).toBe(400);
  await app.close();
  app = undefined;
  return seen;
}

describe('client address', () => {
  it('ignores X-Forwarded-For by default (single machine): the address is the connection’s', async () => {
    expect(await loginIp(undefined, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    expect(await loginIp('', '127.0.0.1', '203.0.113.9, 10.0.0.1')).toBe('127.0.0.1');
  });

  it('believes X-Forwarded-For only from a listed proxy, and only up to the first untrusted hop', async () => {
    expect(await loginIp('10.0.0.0/8', '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    // A client that is not a listed proxy cannot choose its address.
    expect(await loginIp('10.0.0.0/8', '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    // A spoofed entry in front of what the proxy appended is not believed: the proxy's client is.
    expect(await loginIp('10.0.0.0/8', '10.1.2.3', '1.2.3.4, 198.51.100.7')).toBe('198.51.100.7');
  });

  it('reads TRUSTED_PROXIES as a comma-separated list, empty meaning none', () => {
    expect(trustedProxies('')).toBe(false);
    expect(trustedProxies(undefined)).toBe(false);
    expect(trustedProxies(' 10.0.0.0/8 , 192.168.1.1 ')).toEqual(['10.0.0.0/8', '192.168.1.1']);
  });
});
