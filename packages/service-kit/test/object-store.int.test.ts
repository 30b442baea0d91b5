// One contract, two adapters: the fs store in a temporary directory and the s3 store against s3rver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { freePort } from '@fieldwork/launcher';
import {
  FsObjectStore,
  InvalidObjectKeyError,
  ObjectNotFoundError,
  S3ObjectStore,
  verifyFsSignature,
  type ObjectStore,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'fw-objects-'));
const secret = 'x'.repeat(40);
let s3rver: S3rver;
let s3Port: number;

beforeAll(async () => {
  s3Port = await freePort();
  s3rver = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: join(dir, 's3rver') });
  await s3rver.run();
});
afterAll(async () => {
  await s3rver?.close();
  rmSync(dir, { recursive: true, force: true });
});

const adapters: [string, () => ObjectStore][] = [
  ['fs', () => new FsObjectStore({ root: join(dir, 'fs'), publicBaseUrl: 'http://files.test', signingSecret: secret })],
  [
    's3',
    () =>
      new S3ObjectStore({
        endPoint: '127.0.0.1',
        port: s3Port,
        useSSL: false,
        accessKey: 'S3RVER',
        secretKey: 'S3RVER',
        region: 'us-east-1',
        bucket: 'fieldwork-test',
      }),
  ],
];

/** A stream of `chunks` chunks of 1 MiB, generated lazily. */
function bigStream(chunks: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      this.push(i++ < chunks ? Buffer.alloc(1024 * 1024, i % 251) : null);
    },
  });
}

describe.each(adapters)('%s object store', (kind, make) => {
  let store: ObjectStore;
  beforeAll(async () => {
    store = make();
    await store.ensureReady();
    await store.ensureReady();
  });

  it('puts and gets a buffer with its content type, and overwrites', async () => {
    await store.put('a/b/hello.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    expect(await text(await store.get('a/b/hello.txt'))).toBe('hello');
    expect(await store.stat('a/b/hello.txt')).toMatchObject({ size: 5, contentType: 'text/plain' });
    await store.put('a/b/hello.txt', Buffer.from('hello again'), { contentType: 'text/plain' });
    expect(await text(await store.get('a/b/hello.txt'))).toBe('hello again');
  });

  it('puts a stream of unknown length (an upload streamed as it arrives), in several chunks', async () => {
    // Under the s3 store's part size, so one PUT (s3rver has no multipart upload: the longer path needs a real S3).
    const { size } = await store.put('unknown/length.bin', bigStream(3), { contentType: 'text/csv' });
    expect(size).toBe(3 * 1024 * 1024);
    expect(await store.stat('unknown/length.bin')).toMatchObject({ size: 3 * 1024 * 1024, contentType: 'text/csv' });
    let read = 0;
    for await (const chunk of await store.get('unknown/length.bin')) read += (chunk as Buffer).length;
    expect(read).toBe(3 * 1024 * 1024);
  });

  it('leaves no object when a stream of unknown length fails part way', async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 2) this.push(Buffer.alloc(1024 * 1024, 3));
        else this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('unknown/failed.bin', failing, { contentType: 'text/csv' })).rejects.toThrow(
      'client went away',
    );
    expect(await store.stat('unknown/failed.bin')).toBeUndefined();
  });

  it('streams 20 MiB in and out without holding it in memory', async () => {
    const before = process.memoryUsage().rss;
    const { size } = await store.put('big/blob.bin', bigStream(20), {
      contentType: 'application/octet-stream',
      size: 20 * 1024 * 1024,
    });
    expect(size).toBe(20 * 1024 * 1024);
    let read = 0;
    let chunks = 0;
    for await (const chunk of await store.get('big/blob.bin')) {
      read += (chunk as Buffer).length;
      chunks++;
    }
    expect(read).toBe(20 * 1024 * 1024);
    expect(chunks).toBeGreaterThan(10);
    expect(process.memoryUsage().rss - before).toBeLessThan(60 * 1024 * 1024);
  });

  it('answers missing keys with ObjectNotFoundError and stat undefined; delete is idempotent', async () => {
    await expect(store.get('nope/missing')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await store.stat('nope/missing')).toBeUndefined();
    await store.put('gone.txt', Buffer.from('x'));
    await store.delete('gone.txt');
    await store.delete('gone.txt');
    expect(await store.stat('gone.txt')).toBeUndefined();
  });

  it('lists the keys under a prefix, and every key', async () => {
    for (const key of ['list/a/1.txt', 'list/a/2 b.txt', 'list/b/3.txt'])
      await store.put(key, Buffer.from(key), { contentType: 'text/plain' });
    const under = async (prefix?: string) => {
      const keys: string[] = [];
      for await (const k of store.list(prefix)) keys.push(k);
      return keys.sort();
    };
    expect(await under('list/a/')).toEqual(['list/a/1.txt', 'list/a/2 b.txt']);
    expect((await under()).filter((k) => k.startsWith('list/'))).toEqual([
      'list/a/1.txt',
      'list/a/2 b.txt',
      'list/b/3.txt',
    ]);
  });

  it('keeps keys with spaces and unicode', async () => {
    await store.put('logos/ünïcode name (1).png', Buffer.from('png'));
    expect(await text(await store.get('logos/ünïcode name (1).png'))).toBe('png');
  });

  it('refuses path tricks on every method', async () => {
    for (const key of ['../x', '/abs', 'a/../../b', 'a\\b', '', 'a\u0000b', 'a//b', './a']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.presignGet(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
  });

  it('presigns downloads and uploads that expire', async () => {
    await store.put('signed/file.csv', Buffer.from('a,b\n1,2\n'), { contentType: 'text/csv' });
    const get = await store.presignGet('signed/file.csv', { expiresInSeconds: 60 });
    const put = await store.presignPut('signed/upload.csv', { expiresInSeconds: 60, contentType: 'text/csv', size: 4 });
    if (kind === 's3') {
      const got = await fetch(get);
      expect(await got.text()).toBe('a,b\n1,2\n');
      // Served as an attachment (not an image); an image inline with its image type whatever its PUT said.
      expect(got.headers.get('content-disposition')).toBe('attachment; filename="file.csv"');
      await store.put('signed/photo.png', Buffer.from('<html><script>alert(1)</script></html>'), {
        contentType: 'text/html',
      });
      const photo = await fetch(await store.presignGet('signed/photo.png', { expiresInSeconds: 60 }));
      expect(photo.headers.get('content-type')).toBe('image/png');
      expect(photo.headers.get('content-disposition')).toBe('inline; filename="photo.png"');
      expect(
        (
          await fetch(await store.presignGet('signed/photo.png', { expiresInSeconds: 60, filename: 'photo.png' }))
        ).headers.get('content-disposition'),
      ).toBe('attachment; filename="photo.png"');
      expect((await fetch(put, { method: 'PUT', body: 'x,y\n' })).status).toBe(200);
      expect(await text(await store.get('signed/upload.csv'))).toBe('x,y\n');
      const short = await store.presignGet('signed/file.csv', { expiresInSeconds: 1 });
      await new Promise((r) => setTimeout(r, 2100));
      expect((await fetch(short)).status).toBe(403);
    } else {
      for (const [url, method] of [
        [get, 'GET'],
        [put, 'PUT'],
      ] as const) {
        const u = new URL(url);
        expect(u.pathname).toMatch(/^\/api\/files\/signed\//);
        const key = decodeURIComponent(u.pathname.slice('/api/files/'.length));
        const exp = Number(u.searchParams.get('exp'));
        const sig = u.searchParams.get('sig')!;
        expect(u.searchParams.get('method')).toBe(method);
        const params = Object.fromEntries([...u.searchParams].filter(([k]) => !['method', 'exp', 'sig'].includes(k)));
        expect(params).toEqual(method === 'PUT' ? { type: 'text/csv', size: '4' } : {});
        expect(verifyFsSignature(secret, method, key, exp, sig, params)).toBe(true);
        expect(verifyFsSignature(secret, method, `${key}x`, exp, sig, params)).toBe(false);
        expect(verifyFsSignature(secret, method === 'GET' ? 'PUT' : 'GET', key, exp, sig, params)).toBe(false);
        expect(verifyFsSignature(secret, method, key, exp, sig, params, (exp + 1) * 1000)).toBe(false);
      }
      // Every parameter is signed: one dropped, changed or added and the URL is refused.
      const named = new URL(
        await store.presignGet('signed/file.csv', { expiresInSeconds: 60, filename: 'report.csv' }),
      );
      const key = 'signed/file.csv';
      const exp = Number(named.searchParams.get('exp'));
      const sig = named.searchParams.get('sig')!;
      expect(verifyFsSignature(secret, 'GET', key, exp, sig, { filename: 'report.csv' })).toBe(true);
      expect(verifyFsSignature(secret, 'GET', key, exp, sig, {})).toBe(false);
      expect(verifyFsSignature(secret, 'GET', key, exp, sig, { filename: 'report.xhtml' })).toBe(false);
      const sized = new URL(put);
      const putSig = sized.searchParams.get('sig')!;
      const putExp = Number(sized.searchParams.get('exp'));
      expect(
        verifyFsSignature(secret, 'PUT', 'signed/upload.csv', putExp, putSig, { type: 'text/csv', size: '4000000' }),
      ).toBe(false);
      expect(
        verifyFsSignature(secret, 'PUT', 'signed/upload.csv', putExp, putSig, { type: 'text/html', size: '4' }),
      ).toBe(false);
      expect(verifyFsSignature(secret, 'PUT', 'signed/upload.csv', putExp, putSig, { size: '4' })).toBe(false);
    }
  }, 15_000);
});
