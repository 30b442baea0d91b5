// Downloads and uploads of the single-machine (fs) object store, through short-lived signed URLs that the services
// make (/api/files/<key>?method=GET|PUT&exp=&[filename=|type=&size=]&sig=). The signature covers every parameter:
// a URL with one dropped, changed or added is refused. Only raster images are shown inline, anything else is an
// attachment, and every file is answered with a sandboxing CSP (an uploaded page can neither run nor act as ours).
// An upload is held to its signed type and size and written once. With S3 the signed URLs point at S3 and this route
// is absent.
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { downloadDisposition, FS_URL_PARAMS, FsObjectStore, verifyFsSignature } from '@fieldwork/service-kit';
import { problems } from '@fieldwork/service-kit/problems';
import { fileReply } from '../schemas/common.js';

type Q = { Params: { '*': string }; Querystring: Record<string, string | string[] | undefined> };

/** The CSP of a served file: nothing loads, scripts never run, the document gets an opaque origin. */
const FILE_CSP = "default-src 'none'; sandbox";

export const FILE_MESSAGES = {
  type: (type: string) => `Upload the file as ${type}.`,
  exists: 'This file has been uploaded already.',
} as const;

/**
 * The schemas of the file routes. The query is the signed URL's own: its parameters are named here (strings, one of
 * each) and checked against the signature by the handler (403 for any dropped, changed or added). In the OpenAPI
 * document (when the gateway serves an fs store): clients follow these URLs as the services made them.
 */
const signedQuery = {
  type: 'object',
  additionalProperties: true,
  properties: {
    method: { type: 'string', maxLength: 10, description: 'GET or PUT' },
    exp: { type: 'string', maxLength: 20, description: 'Expiry, in seconds since the epoch' },
    sig: { type: 'string', maxLength: 128 },
    filename: { type: 'string', maxLength: 1000, description: 'Downloads: the name the file is saved as' },
    type: { type: 'string', maxLength: 255, description: 'Uploads: the content type the file must be sent as' },
    size: { type: 'string', maxLength: 20, description: 'Uploads: the largest size in bytes' },
  },
} as const;
const keyParams = {
  type: 'object',
  required: ['*'],
  properties: { '*': { type: 'string', maxLength: 1024 } },
} as const;
const fileSchema = {
  tags: ['files'],
  params: keyParams,
  querystring: signedQuery,
};
/**
 * An upload's bytes as they are, in the signed type. Declared under the media range of any type, which is no
 * request's own type, so the raw body (read by no parser) is not validated as JSON: the handler holds it to its type and size.
 */
const rawBody = {
  content: { '*/*': { schema: { type: 'string', format: 'binary', description: 'The file, in its signed type' } } },
};

/** Passes at most `max` bytes, then fails with a 413. */
class AtMost extends Transform {
  private seen = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) done(problems.payloadTooLarge());
    else done(null, chunk);
  }
}

export default async function fileRoutes(app: FastifyInstance, opts: { dir: string; secret: string }) {
  // Uploads stream the raw body to the store, whatever its type: no parser here reads it first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const store = new FsObjectStore({ root: opts.dir, publicBaseUrl: '', signingSecret: opts.secret });
  const check = (r: FastifyRequest<Q>, method: 'GET' | 'PUT') => {
    const key = r.params['*'];
    const { method: m, exp, sig, ...rest } = r.query;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(rest)) {
      if (!(FS_URL_PARAMS as readonly string[]).includes(name) || typeof value !== 'string') throw problems.forbidden();
      params[name] = value;
    }
    if (
      m !== method ||
      typeof exp !== 'string' ||
      typeof sig !== 'string' ||
      !verifyFsSignature(opts.secret, method, key, Number(exp), sig, params)
    ) {
      throw problems.forbidden();
    }
    return { key, params };
  };

  const download = {
    ...fileSchema,
    summary: 'A stored file, through a signed URL',
    response: {
      200: fileReply('application/octet-stream', 'The file (its stored type; images inline, else attachments)'),
    },
  };
  app.get<Q>('/api/files/*', { schema: download }, async (r, reply) => {
    const { key, params } = check(r, 'GET');
    const info = await store.stat(key).catch(() => undefined);
    if (!info) throw problems.notFound();
    const how = downloadDisposition(key, {
      ...(params.filename !== undefined ? { filename: params.filename } : {}),
      type: info.contentType ?? 'application/octet-stream',
    });
    return reply
      .header('content-type', how.contentType ?? info.contentType ?? 'application/octet-stream')
      .header('content-length', info.size)
      .header('content-disposition', how.disposition)
      .header('content-security-policy', FILE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=300')
      .send(await store.get(key));
  });

  const upload = {
    ...fileSchema,
    summary: 'Stores a file once, through a signed URL',
    body: rawBody,
    response: { 200: { type: 'object', properties: { key: { type: 'string' } } } },
  };
  app.put<Q>('/api/files/*', { schema: upload, bodyLimit: 1024 * 1024 * 1024 }, async (r, reply) => {
    const { key, params } = check(r, 'PUT');
    const max = Number(params.size);
    if (!Number.isSafeInteger(max) || max < 0) throw problems.forbidden();
    const type = (r.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
    if (params.type !== undefined && type !== params.type)
      throw problems.invalidFields({ content_type: [FILE_MESSAGES.type(params.type)] });
    if (Number(r.headers['content-length'] ?? 0) > max) throw problems.payloadTooLarge();
    if (await store.exists(key)) throw problems.invalid(FILE_MESSAGES.exists);
    // A body over its signed size fails with 413 and leaves nothing (the store writes a temporary file, renamed when
    // complete).
    const limited = new AtMost(max);
    // pipeline, not pipe: the limit's error is handled from the first byte (the store starts reading later).
    pipeline(r.raw, limited, () => undefined);
    await store.put(key, limited, { contentType: type });
    return reply.status(200).send({ key });
  });
}
