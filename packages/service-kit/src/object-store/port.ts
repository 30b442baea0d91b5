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
  put(
    key: string,
    body: Buffer | Readable,
    options?: { contentType?: string; size?: number },
  ): Promise<{ key: string; size: number }>;
  /** Reads an object; rejects with ObjectNotFoundError when it is missing. */
  get(key: string): Promise<Readable>;
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (all keys when empty), for backups. */
  list(prefix?: string): AsyncIterable<string>;
  /**
   * A URL that downloads the object until it expires: shown inline only when it is a raster image (INLINE_TYPES) and
   * no `filename` is given, else as an attachment (downloadDisposition).
   */
  presignGet(key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string>;
  /**
   * A URL that accepts one PUT of the object until it expires. The fs store also holds it to `contentType` and at
   * most `size` bytes and refuses a second PUT; S3 cannot (its presigned PUT signs no length), so whoever asked for
   * the URL checks the stored object afterwards (the media completion does).
   */
  presignPut(key: string, options: { expiresInSeconds: number; contentType?: string; size: number }): Promise<string>;
}

/** Types a browser may show inline from our origin: raster images only (never HTML, XHTML, SVG or XML). */
export const INLINE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

const INLINE_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** A file name safe in a Content-Disposition header. */
export const dispositionName = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(-200) || 'file';

/**
 * How a download is served: inline, with its image type, only for a raster image (`type` when known, else by the
 * key's extension) asked for without a file name; anything else as an attachment.
 */
export function downloadDisposition(
  key: string,
  options: { filename?: string; type?: string },
): { disposition: string; contentType?: string } {
  const name = dispositionName(options.filename ?? key.split('/').pop() ?? 'file');
  const byExtension = INLINE_BY_EXTENSION[/\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? ''];
  const type = options.type ?? byExtension;
  if (options.filename === undefined && type !== undefined && INLINE_TYPES.includes(type))
    return { disposition: `inline; filename="${name}"`, contentType: type };
  return { disposition: `attachment; filename="${name}"` };
}

export class ObjectNotFoundError extends Error {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`no object ${key}`, options);
    this.name = 'ObjectNotFoundError';
  }
}

export class InvalidObjectKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
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
  if (key.split('/').some((s) => s === '' || s === '.' || s === '..'))
    throw new InvalidObjectKeyError(key, 'empty, . or .. segment');
  return key;
}
