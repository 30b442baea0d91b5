import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { buildGateway } from '../../app.js';
import type { Clients } from '../../clients.js';
import { IMMUTABLE, REVALIDATE } from './web.js';

// A built web app as `vite build` and web/scripts/compress.mjs leave it: hashed assets, the shell, the service worker,
// each text file with its .br and .gz.
const files: Record<string, string> = {
  'index.html': `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<div></div>'.repeat(100)}</body></html>`,
  'assets/index-AbC123.js': `console.log(${JSON.stringify('fieldwork '.repeat(300))});`,
  'assets/index-AbC123.css': `body { margin: 0; }${' .a { color: red; }'.repeat(100)}`,
  'sw.js': `self.addEventListener('fetch', () => {});${'//'.repeat(600)}`,
  'registerSW.js': "if('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js')",
  'manifest.webmanifest': '{"name":"Fieldwork"}',
};

/** The whole gateway (no gRPC calls are made for these paths) over a built web app in a temporary directory. */
async function build(webDir: string): Promise<FastifyInstance> {
  const app = await buildGateway({
    clients: {} as Clients,
    log: createLogger('gateway', 'silent'),
    options: { jwtSecret: 'x'.repeat(32), bodyLimit: 1024 * 1024, corsOrigins: '', webDir, tls: false },
  });
  await app.ready();
  return app;
}

describe('web app serving', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fieldwork-web-'));
    mkdirSync(join(dir, 'assets'));
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      if (text.length >= 1024) {
        writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
        writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
      }
    }
    app = await build(dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a hashed asset brotli-compressed to a client that accepts it, cached for a year', async () => {
    const r = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(r.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(files['assets/index-AbC123.js']);
  });

  it('serves gzip to a client that accepts only gzip', async () => {
    const r = await app.inject({ url: '/assets/index-AbC123.css', headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['content-type']).toMatch(/^text\/css/);
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(r.rawPayload).toString()).toBe(files['assets/index-AbC123.css']);
  });

  it('serves the plain file to a client without Accept-Encoding, still varying on it', async () => {
    const r = await app.inject({ url: '/assets/index-AbC123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body).toBe(files['assets/index-AbC123.js']);
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(r.headers.vary).toMatch(/accept-encoding/i);
  });

  it('serves the plain file when there is no compressed copy (small files)', async () => {
    const r = await app.inject({ url: '/registerSW.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body).toBe(files['registerSW.js']);
    expect(r.headers['cache-control']).toBe(REVALIDATE);
  });

  it.each(['/', '/index.html', '/sw.js', '/manifest.webmanifest'])('revalidates %s on every use', async (url) => {
    const r = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe(REVALIDATE);
    expect(r.headers.etag).toBeDefined();
  });

  it('answers the SPA fallback with index.html, compressed and revalidated', async () => {
    const r = await app.inject({ url: '/project/12/collect/newrecord', headers: { 'accept-encoding': 'gzip, br' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe(REVALIDATE);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(files['index.html']);
    const plain = await app.inject({ url: '/projects' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(files['index.html']);
  });

  it('answers a missing asset and an unknown API path with 404, not the app', async () => {
    const asset = await app.inject({ url: '/assets/missing-XyZ.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(404);
    const api = await app.inject({ url: '/api/no/such/thing/' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toHaveProperty('detail');
  });
});
