// The gateway's routes as Fastify registers them, for tests that must cover every one: a test file wraps Fastify's
// factory with watchRoutes (vi.mock('fastify', ...)) so that an onRoute hook sees each route as it is added, then
// compares the routes with the requests it sent (uncovered).
import type { FastifyInstance, RouteOptions } from 'fastify';

/** The routes registered since this module was loaded (one gateway per test file). */
export const registered: RouteOptions[] = [];

/** Fastify's module with its factory adding the onRoute hook that fills `registered`. */
export function watchRoutes<M extends { default: (opts?: object) => FastifyInstance }>(fastify: M): M {
  const watched = (opts?: object) => {
    const app = fastify.default(opts);
    app.addHook('onRoute', (route) => {
      registered.push(route);
    });
    return app;
  };
  return { ...fastify, default: watched };
}

/** `METHOD url` of each registered route with one of `tags` (HEAD, Fastify's copy of each GET, left out). */
export function routesTagged(tags: readonly string[]): string[] {
  return registered.flatMap((r) => {
    const own = ((r.schema as { tags?: string[] } | undefined)?.tags ?? []).some((t) => tags.includes(t));
    if (!own) return [];
    return (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD').map((m) => `${m} ${r.url}`);
  });
}

const patternOf = (url: string) =>
  new RegExp(
    `^${url
      .replace(/\/$/, '')
      .split('/')
      .map((s) => (s.startsWith(':') ? '[^/]+' : s === '*' ? '.+' : s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')))
      .join('/')}/?$`,
  );

/** The routes (`METHOD url`) that none of the requests reached; a request reaches the most specific route it matches. */
export function uncovered(routes: readonly string[], requests: readonly { method: string; url: string }[]): string[] {
  const all = registered.flatMap((r) =>
    (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({
      key: `${m} ${r.url}`,
      method: m,
      pattern: patternOf(r.url),
      params: (r.url.match(/:|\*/g) ?? []).length,
    })),
  );
  const reached = new Set<string>();
  for (const { method, url } of requests) {
    const path = url.split('?')[0]!;
    const best = all.filter((r) => r.method === method && r.pattern.test(path)).sort((a, b) => a.params - b.params)[0];
    if (best) reached.add(best.key);
  }
  return routes.filter((r) => !reached.has(r));
}
