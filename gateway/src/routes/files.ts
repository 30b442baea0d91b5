// Downloads and uploads of the single-machine (fs) object store, through short-lived signed URLs that the services
// make (/api/files/<key>?method=GET|PUT&exp=&sig=). With S3 the signed URLs point at S3 and this route is absent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FsObjectStore, verifyFsSignature } from '@fieldwork/service-kit';
import { problems } from '@fieldwork/service-kit/problems';

type Q = { Params: { '*': string }; Querystring: Record<string, string | undefined> };

export default async function fileRoutes(app: FastifyInstance, opts: { dir: string; secret: string }) {
  // Uploads stream the raw body to the store, whatever its type: no parser here reads it first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const store = new FsObjectStore({ root: opts.dir, publicBaseUrl: '', signingSecret: opts.secret });
  const check = (r: FastifyRequest<Q>, method: 'GET' | 'PUT') => {
    const key = r.params['*'];
    const exp = Number(r.query.exp);
    if (r.query.method !== method || !verifyFsSignature(opts.secret, method, key, exp, r.query.sig ?? '')) {
      throw problems.forbidden();
    }
    return key;
  };

  app.get<Q>('/api/files/*', { schema: { hide: true } }, async (r, reply) => {
    const key = check(r, 'GET');
    const info = await store.stat(key).catch(() => undefined);
    if (!info) throw problems.notFound();
    const name = (r.query.filename ?? key.split('/').pop() ?? 'file').replace(/[^\w.-]+/g, '_');
    return reply
      .header('content-type', info.contentType ?? 'application/octet-stream')
      .header('content-length', info.size)
      .header('content-disposition', `${r.query.filename ? 'attachment' : 'inline'}; filename="${name}"`)
      .header('cache-control', 'private, max-age=300')
      .send(await store.get(key));
  });

  app.put<Q>('/api/files/*', { schema: { hide: true }, bodyLimit: 1024 * 1024 * 1024 }, async (r, reply) => {
    const key = check(r, 'PUT');
    await store.put(key, r.raw, { contentType: r.headers['content-type'] ?? 'application/octet-stream' });
    return reply.status(200).send({ key });
  });
}
