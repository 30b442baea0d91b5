// The built web app at `/`, with the SPA fallback for the spec's routes; unknown API paths answer 404 JSON.
// Files are served pre-compressed: the web build writes a .br and a .gz beside each text file (web/scripts/
// compress.mjs) and @fastify/static picks the one the client accepts, the plain file otherwise. Hashed files under
// /assets/ never change under their name and are cached for a year; everything else (index.html, the service worker,
// the manifest, the SPA fallback) is revalidated on every use, so a deploy reaches every client on its next load.
import { access } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { problems } from '@fieldwork/service-kit/problems';

/** What a missing static file looks like (a route may end with a dot too: an email in collect/anonymous/{token}/{email}). */
const STATIC_FILE = /\.(js|mjs|css|map|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|json|webmanifest|txt|html|xml)$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export default fp(
  async (app, opts: { webDir: string }) => {
    const hasWeb =
      opts.webDir !== '' &&
      (await access(join(opts.webDir, 'index.html')).then(
        () => true,
        () => false,
      ));
    const assets = join(opts.webDir, 'assets') + sep;
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.webDir,
        prefix: '/',
        wildcard: false,
        index: 'index.html',
        preCompressed: true,
        // Cache-Control is ours (below); ETag and Last-Modified stay for the revalidations.
        cacheControl: false,
        setHeaders: (reply: FastifyReply, path: string) => {
          void reply.header('cache-control', path.startsWith(assets) ? IMMUTABLE : REVALIDATE);
        },
      });
    } else {
      app.log.warn({ webDir: opts.webDir }, 'no built web app found; serving the API only');
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const wantsPage = request.method === 'GET' && !path.startsWith('/api/') && !STATIC_FILE.test(path);
      if (hasWeb && wantsPage) return reply.header('cache-control', REVALIDATE).sendFile('index.html');
      throw problems.notFound();
    });
  },
  { name: 'web' },
);
