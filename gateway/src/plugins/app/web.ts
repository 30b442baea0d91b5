// The built web app at `/`, with the SPA fallback for the spec's routes; unknown API paths answer 404 JSON.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { problems } from '@fieldwork/service-kit/problems';

export default fp(
  async (app, opts: { webDir: string }) => {
    const hasWeb = opts.webDir !== '' && (await access(join(opts.webDir, 'index.html')).then(() => true, () => false));
    if (hasWeb) {
      await app.register(fastifyStatic, { root: opts.webDir, prefix: '/', wildcard: false, index: 'index.html', cacheControl: false });
    } else {
      app.log.warn({ webDir: opts.webDir }, 'no built web app found; serving the API only');
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const wantsPage = request.method === 'GET' && !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path);
      if (hasWeb && wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      throw problems.notFound();
    });
  },
  { name: 'web' },
);
