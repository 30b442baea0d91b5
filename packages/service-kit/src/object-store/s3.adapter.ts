// The production object store: MinIO or any S3, through the minio client.
import type { Readable } from 'node:stream';
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

function notFound(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject';
}

export class S3ObjectStore implements ObjectStore {
  private readonly client: Client;

  constructor(private readonly options: S3ObjectStoreOptions) {
    this.client = new Client({
      endPoint: options.endPoint,
      port: options.port,
      useSSL: options.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
    });
  }

  async ensureReady(): Promise<void> {
    if (!(await this.client.bucketExists(this.options.bucket))) await this.client.makeBucket(this.options.bucket, this.options.region);
  }

  async put(key: string, body: Buffer | Readable, options: { contentType?: string; size?: number } = {}): Promise<{ key: string; size: number }> {
    validateKey(key);
    const meta = { 'Content-Type': options.contentType ?? 'application/octet-stream' };
    if (Buffer.isBuffer(body)) await this.client.putObject(this.options.bucket, key, body, body.length, meta);
    else await this.client.putObject(this.options.bucket, key, body, options.size, meta);
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
    for await (const item of this.client.listObjectsV2(this.options.bucket, prefix, true) as AsyncIterable<{ name?: string }>) {
      if (item.name) yield item.name;
    }
  }

  async presignGet(key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string> {
    validateKey(key);
    // S3 serves what these (signed) parameters say: an image inline with its image type whatever type its PUT
    // claimed, anything else as an attachment.
    const how = downloadDisposition(key, options.filename === undefined ? {} : { filename: options.filename });
    const headers: Record<string, string> = { 'response-content-disposition': how.disposition, ...(how.contentType ? { 'response-content-type': how.contentType } : {}) };
    return this.client.presignedGetObject(this.options.bucket, key, options.expiresInSeconds, headers);
  }

  /** Size and type cannot be signed into an S3 presigned PUT: the caller checks the stored object (see the port). */
  async presignPut(key: string, options: { expiresInSeconds: number; size: number }): Promise<string> {
    validateKey(key);
    return this.client.presignedPutObject(this.options.bucket, key, options.expiresInSeconds);
  }
}
