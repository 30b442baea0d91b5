// The API's JSON answers are gzip-compressed for clients that accept it, above 2 kB; request bodies are never
// decompressed. Through app.inject on the whole gateway (these paths make no gRPC call).
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { buildGateway } from './app.js';
import type { Clients } from './clients.js';

describe('API compression', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildGateway({
      clients: {} as Clients,
      log: createLogger('gateway', 'silent'),
      options: { jwtSecret: 'x'.repeat(32), bodyLimit: 1024 * 1024, corsOrigins: '', webDir: '', tls: false },
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('gzips a large JSON answer for a client that accepts it, and sends it plain to one that does not', async () => {
    const zipped = await app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    const doc = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8')) as { openapi: string; paths: object };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
    expect(zipped.rawPayload.length).toBeLessThan(JSON.stringify(doc).length / 4);
    const plain = await app.inject({ url: '/api/docs/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.payload)).toEqual(doc);
  });

  it('sends small answers as they are', async () => {
    const r = await app.inject({ url: '/api/no/such/route/', headers: { 'accept-encoding': 'gzip' } });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.json()).toHaveProperty('detail');
  });

  it('does not decompress a compressed request body', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/api-token-auth/',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ username: 'a', password: 'b' })),
    });
    expect(r.statusCode).toBe(400);
  });
});
