// The production object store: MinIO or any S3, through the minio client.
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { downloadDisposition, ObjectNotFoundError, validateKey, type ObjectInfo, type ObjectStore } from './port.js';

export interface S3ObjectStoreOptions {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
}

/**
 * Part size of a stream put without its length (an upload the gateway streams): at most about this much of it is held
 * in memory. Given no length, the minio client would pick the part size for its 5 TiB maximum (about 550 MB) and
 * read a whole part into memory before sending it.
 */
const STREAM_PART_BYTES = 5 * 1024 * 1024;

/** Reads up to `limit` bytes of a stream (fewer when it ends first), leaving the rest unread in it. */
async function firstBytes(body: Readable, limit: number): Promise<{ head: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < limit) {
    const chunk = body.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    if (body.readableEnded) return { head: Buffer.concat(chunks), ended: true };
    if (body.errored) throw body.errored;
    if (body.destroyed) throw new Error('the stream was destroyed before its end');
    const ended = await new Promise<boolean>((resolve, reject) => {
      const settle = (value: boolean | Error) => {
        body.off('readable', onReadable).off('end', onEnd).off('error', settle);
        if (value instanceof Error) reject(value);
        else resolve(value);
      };
      const onReadable = () => settle(false);
      const onEnd = () => settle(true);
      body.once('readable', onReadable).once('end', onEnd).once('error', settle);
    });
    if (ended) return { head: Buffer.concat(chunks), ended: true };
  }
  return { head: Buffer.concat(chunks), ended: false };
}

function notFound(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject';
}

export class S3ObjectStore implements ObjectStore {
  private readonly client: Client;
  /** The same client with small parts, for streams of unknown length (STREAM_PART_BYTES). */
  private readonly streaming: Client;

  constructor(private readonly options: S3ObjectStoreOptions) {
    const settings = {
      endPoint: options.endPoint,
      port: options.port,
      useSSL: options.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
    };
    this.client = new Client(settings);
    this.streaming = new Client({ ...settings, partSize: STREAM_PART_BYTES });
  }

  async ensureReady(): Promise<void> {
    if (!(await this.client.bucketExists(this.options.bucket)))
      await this.client.makeBucket(this.options.bucket, this.options.region);
  }

  async put(
    key: string,
    body: Buffer | Readable,
    options: { contentType?: string; size?: number } = {},
  ): Promise<{ key: string; size: number }> {
    validateKey(key);
    const meta = { 'Content-Type': options.contentType ?? 'application/octet-stream' };
    if (Buffer.isBuffer(body)) await this.client.putObject(this.options.bucket, key, body, body.length, meta);
    else if (options.size !== undefined)
      await this.client.putObject(this.options.bucket, key, body, options.size, meta);
    else {
      // Unknown length: a stream that ends within one small part is one PUT, a longer one a multipart upload of small
      // parts (whose unfinished parts are dropped when the stream fails). The stream's error is this put's rejection:
      // listened to from here on, so that it is not also an uncaught 'error' event while nothing else reads it yet.
      body.on('error', () => undefined);
      const { head, ended } = await firstBytes(body, STREAM_PART_BYTES);
      if (ended) await this.client.putObject(this.options.bucket, key, head, head.length, meta);
      else {
        const whole = Readable.from(
          (async function* () {
            yield head;
            yield* body;
          })(),
        );
        try {
          await this.streaming.putObject(this.options.bucket, key, whole, undefined, meta);
        } catch (err) {
          await this.streaming.removeIncompleteUpload(this.options.bucket, key).catch(() => undefined);
          throw err;
        }
      }
    }
    const info = await this.client.statObject(this.options.bucket, key);
    return { key, size: info.size };
  }

  async get(key: string): Promise<Readable> {
    validateKey(key);
    try {
      return await this.client.getObject(this.options.bucket, key);
    } catch (err) {
      if (notFound(err)) throw new ObjectNotFoundError(key, { cause: err });
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    validateKey(key);
    try {
      const info = await this.client.statObject(this.options.bucket, key);
      const contentType = info.metaData['content-type'] as string | undefined;
      return { size: info.size, lastModified: info.lastModified, ...(contentType ? { contentType } : {}) };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    await this.client.removeObject(this.options.bucket, key);
  }

  async *list(prefix = ''): AsyncIterable<string> {
    for await (const item of this.client.listObjectsV2(this.options.bucket, prefix, true) as AsyncIterable<{
      name?: string;
    }>) {
      if (item.name) yield item.name;
    }
  }

  async presignGet(key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string> {
    validateKey(key);
    // S3 serves what these (signed) parameters say: an image inline with its image type whatever type its PUT
    // claimed, anything else as an attachment.
    const how = downloadDisposition(key, options.filename === undefined ? {} : { filename: options.filename });
    const headers: Record<string, string> = {
      'response-content-disposition': how.disposition,
      ...(how.contentType ? { 'response-content-type': how.contentType } : {}),
    };
    return this.client.presignedGetObject(this.options.bucket, key, options.expiresInSeconds, headers);
  }

  /** Size and type cannot be signed into an S3 presigned PUT: the caller checks the stored object (see the port). */
  async presignPut(key: string, options: { expiresInSeconds: number; size: number }): Promise<string> {
    validateKey(key);
    return this.client.presignedPutObject(this.options.bucket, key, options.expiresInSeconds);
  }
}
