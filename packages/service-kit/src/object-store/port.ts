// The object store port: one small interface, two adapters (fs for a single machine, s3 for MinIO or any S3).
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  size: number;
  contentType?: string;
  lastModified: Date;
}

export interface ObjectStore {
  /** Creates the bucket or directory when missing. */
  ensureReady(): Promise<void>;
  /** Writes an object; a stream is streamed, never buffered. */
  put(key: string, body: Buffer | Readable, options?: { contentType?: string; size?: number }): Promise<{ key: string; size: number }>;
  /** Reads an object; rejects with ObjectNotFoundError when it is missing. */
  get(key: string): Promise<Readable>;
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (all keys when empty), for backups. */
  list(prefix?: string): AsyncIterable<string>;
  /** A URL that downloads the object until it expires. */
  presignGet(key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string>;
  /** A URL that accepts one PUT of the object until it expires. */
  presignPut(key: string, options: { expiresInSeconds: number; contentType?: string }): Promise<string>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string, options?: { cause?: unknown }) {
    super(`no object ${key}`, options);
    this.name = 'ObjectNotFoundError';
  }
}

export class InvalidObjectKeyError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`invalid object key (${reason})`);
    this.name = 'InvalidObjectKeyError';
  }
}

/**
 * Keys are relative paths of non-empty segments: no absolute paths, `.` or `..` segments, backslashes, control
 * characters, or more than 1024 bytes. Every adapter method checks, so no key can leave the store.
 */
export function validateKey(key: string): string {
  if (typeof key !== 'string' || key === '') throw new InvalidObjectKeyError(String(key), 'empty');
  if (Buffer.byteLength(key) > 1024) throw new InvalidObjectKeyError(key.slice(0, 40), 'longer than 1024 bytes');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(key)) throw new InvalidObjectKeyError(key, 'control character or backslash');
  if (key.startsWith('/')) throw new InvalidObjectKeyError(key, 'absolute');
  if (key.split('/').some((s) => s === '' || s === '.' || s === '..')) throw new InvalidObjectKeyError(key, 'empty, . or .. segment');
  return key;
}
