// The built web app at `/`, with the SPA fallback for the spec's routes; unknown API paths answer 404 JSON.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { problems } from '@fieldwork/service-kit/problems';

/** What a missing static file looks like (a route may end with a dot too: an email in collect/anonymous/{token}/{email}). */
const STATIC_FILE = /\.(js|mjs|css|map|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|json|webmanifest|txt|html|xml)$/i;

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
      const wantsPage = request.method === 'GET' && !path.startsWith('/api/') && !STATIC_FILE.test(path);
      if (hasWeb && wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      throw problems.notFound();
    });
  },
  { name: 'web' },
);
