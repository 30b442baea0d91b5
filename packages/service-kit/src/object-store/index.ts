// The object store: the port, its two adapters, and the choice between them from the environment.
import { vars, z } from '../config.js';
import { FsObjectStore } from './fs.adapter.js';
import { S3ObjectStore } from './s3.adapter.js';
import type { ObjectStore } from './port.js';

export * from './port.js';
export { FS_URL_PARAMS, FsObjectStore, signFsUrl, verifyFsSignature } from './fs.adapter.js';
export { S3ObjectStore } from './s3.adapter.js';

/** The variables of processes that use the object store. */
export const objectStoreVars = {
  /** `fs` (a directory, single machine) or `s3` (MinIO or any S3). */
  OBJECT_STORE: z.enum(['fs', 's3']).default('fs'),
  /** Directory of the fs store. */
  OBJECT_STORE_DIR: vars.string('.data/objects'),
  /** Secret signing the fs store's download and upload URLs (the gateway verifies them). */
  OBJECT_STORE_SIGNING_SECRET: vars.string(''),
  /** Public base URL of the gateway, for the fs store's signed URLs. */
  PUBLIC_URL: vars.string('http://localhost:8080'),
  /** S3 endpoint host, port, TLS, credentials, region and bucket (with OBJECT_STORE=s3). */
  S3_ENDPOINT: vars.string('127.0.0.1'),
  S3_PORT: vars.port(9000),
  S3_USE_SSL: vars.bool(false),
  S3_ACCESS_KEY: vars.string(''),
  S3_SECRET_KEY: vars.string(''),
  S3_REGION: vars.string('us-east-1'),
  S3_BUCKET: z.string().min(3, 'bucket names are at least 3 characters').default('fieldwork'),
};

export type ObjectStoreConfig = z.infer<z.ZodObject<typeof objectStoreVars>>;

export function createObjectStore(c: ObjectStoreConfig): ObjectStore {
  if (c.OBJECT_STORE === 's3') {
    return new S3ObjectStore({
      endPoint: c.S3_ENDPOINT,
      port: c.S3_PORT,
      useSSL: c.S3_USE_SSL,
      accessKey: c.S3_ACCESS_KEY,
      secretKey: c.S3_SECRET_KEY,
      region: c.S3_REGION,
      bucket: c.S3_BUCKET,
    });
  }
  if (c.OBJECT_STORE_SIGNING_SECRET.length < 32)
    throw new Error('OBJECT_STORE_SIGNING_SECRET must be at least 32 characters with OBJECT_STORE=fs');
  return new FsObjectStore({
    root: c.OBJECT_STORE_DIR,
    publicBaseUrl: c.PUBLIC_URL,
    signingSecret: c.OBJECT_STORE_SIGNING_SECRET,
  });
}
