// The single-machine object store: files under a directory, written atomically; downloads and uploads go through
// short-lived signed gateway URLs (/api/files/<key>?method=&exp=&sig=) that the gateway verifies.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidObjectKeyError, ObjectNotFoundError, validateKey, type ObjectInfo, type ObjectStore } from './port.js';

const META = '.meta.json';

export interface FsObjectStoreOptions {
  root: string;
  /** Base of the signed URLs, e.g. http://localhost:8080 (the gateway serves /api/files/). */
  publicBaseUrl: string;
  signingSecret: string;
}

/**
 * The signature of a presigned fs URL: HMAC-SHA256 of the method, the key, the expiry and every other parameter of
 * the URL (filename, type, size), in name order, so that none can be dropped or changed.
 */
export function signFsUrl(
  secret: string,
  method: 'GET' | 'PUT',
  key: string,
  exp: number,
  params: Record<string, string> = {},
): string {
  const rest = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`);
  return createHmac('sha256', secret)
    .update([method, key, String(exp), ...rest].join('\n'))
    .digest('hex');
}

/** Checks a presigned fs URL's signature over all its parameters (constant time) and its expiry. */
export function verifyFsSignature(
  secret: string,
  method: 'GET' | 'PUT',
  key: string,
  exp: number,
  sig: string,
  params: Record<string, string> = {},
  now = Date.now(),
): boolean {
  if (!Number.isSafeInteger(exp) || exp * 1000 < now || !/^[0-9a-f]{64}$/.test(sig)) return false;
  const expected = Buffer.from(signFsUrl(secret, method, key, exp, params), 'hex');
  return timingSafeEqual(expected, Buffer.from(sig, 'hex'));
}

/** The parameters a signed fs URL may carry besides method, exp and sig; any other makes it invalid. */
export const FS_URL_PARAMS = ['filename', 'type', 'size'] as const;

export class FsObjectStore implements ObjectStore {
  private readonly root: string;

  constructor(private readonly options: FsObjectStoreOptions) {
    this.root = resolve(options.root);
  }

  async ensureReady(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  /** The file of a key, checked to stay inside the root. */
  private path(key: string): string {
    const p = resolve(this.root, validateKey(key));
    if (!p.startsWith(this.root + sep)) throw new InvalidObjectKeyError(key, 'outside the store');
    if (p.endsWith(META)) throw new InvalidObjectKeyError(key, 'reserved name');
    return p;
  }

  async put(
    key: string,
    body: Buffer | Readable,
    options: { contentType?: string } = {},
  ): Promise<{ key: string; size: number }> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = join(dirname(file), `.tmp-${randomBytes(6).toString('hex')}`);
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp));
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const size = (await stat(file)).size;
    await writeFile(file + META, JSON.stringify({ contentType: options.contentType ?? 'application/octet-stream' }));
    return { key, size };
  }

  async get(key: string): Promise<Readable> {
    const file = this.path(key);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new ObjectNotFoundError(key);
    return createReadStream(file);
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const file = this.path(key);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const meta = await readFile(file + META, 'utf8').then(
      (t) => JSON.parse(t) as { contentType?: string },
      () => ({ contentType: undefined }),
    );
    return { size: info.size, contentType: meta.contentType, lastModified: info.mtime };
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(file + META, { force: true });
  }

  async *list(prefix = ''): AsyncIterable<string> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    const keys = entries
      .filter((e) => e.isFile() && !e.name.endsWith(META) && !e.name.startsWith('.tmp-'))
      .map((e) =>
        join(e.parentPath, e.name)
          .slice(this.root.length + 1)
          .split(sep)
          .join('/'),
      )
      .filter((k) => k.startsWith(prefix))
      .sort();
    yield* keys;
  }

  async presignGet(key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string> {
    return this.url(
      'GET',
      key,
      options.expiresInSeconds,
      options.filename === undefined ? {} : { filename: options.filename },
    );
  }

  async presignPut(
    key: string,
    options: { expiresInSeconds: number; contentType?: string; size: number },
  ): Promise<string> {
    return this.url('PUT', key, options.expiresInSeconds, {
      ...(options.contentType !== undefined ? { type: options.contentType } : {}),
      size: String(options.size),
    });
  }

  private url(method: 'GET' | 'PUT', key: string, expiresInSeconds: number, params: Record<string, string>): string {
    validateKey(key);
    const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const path = key.split('/').map(encodeURIComponent).join('/');
    const sig = signFsUrl(this.options.signingSecret, method, key, exp, params);
    const query = new URLSearchParams({ method, exp: String(exp), ...params, sig });
    return `${this.options.publicBaseUrl.replace(/\/+$/, '')}/api/files/${path}?${query.toString()}`;
  }

  /** Whether the key holds an object (a presigned PUT writes once). */
  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }
}
