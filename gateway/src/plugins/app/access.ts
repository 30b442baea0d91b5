// One access decision per request (issue 22): on the routes of a project (/api/project/:id/...), once the caller is
// known, the gateway asks the projects service for the caller's access to that project — workspace roles, then
// project roles, then read_sites, decided there by packages/access — and passes the answer to the services as a
// signed grant in gRPC metadata (service-kit grant.ts), so that they apply it instead of asking again. Answers are
// kept per (user, workspace, staff flag, project) for at most GRANT_TTL_MS (15 s), and dropped at once on every
// gateway when a request that may change access succeeds (a role, a membership, read_sites, a site, the project's
// state or type): this gateway drops them before it answers, the others when NATS brings them the event. A lost
// event leaves a stale answer for at most 15 s. Anonymous respondents of collection links are never cached: their
// link is checked on every call, as before. The routes keyed by a form's schema (/api/samplerschema/:id/...) are
// decided for the schema's project, which the forms service names once per schema (a schema never changes project).
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { common, projects } from '@fieldwork/proto';
import { GRANT_TTL_MS, problems, signGrant, type Logger } from '@fieldwork/service-kit';
import type { Clients } from '../../clients.js';
import { allows, isProjectRoute, isSchemaRoute, ROUTE_NEEDS } from '../../route-access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed grant of this request's project, when the gateway decided one (routes/util.ts meta passes it). */
    grant: string;
    /** This request's access decision, once asked for. */
    decision: Promise<Decision> | undefined;
  }
  interface FastifyInstance {
    /** The grants this gateway holds (tests and metrics). */
    accessGrants: AccessGrants;
  }
}

/**
 * Requests that change no one's access: they never drop the grants (everything else that succeeds and is not a read
 * does). Not create-form-from-upload: an XLSForm's repeats set the project's hierarchy, which a grant carries.
 */
const KEEPS_ACCESS =
  /^\/api\/(?:collect\/|exports\/|files\/|item-results\/|samplerschema\/|accounts\/|api-token-auth|api\/v1\/oauth\/|token|error|project\/$|project\/:id\/(?:advanced_results|export|import|media|open-response|response|results|upload|aggregator|timingcolumn|disable_postgres|postgres|surveys|duplicate))/;

/** Whether a successful `method` on the route `url` may change someone's access (and which project's, 0: any). */
export function accessChangedBy(
  method: string,
  url: string,
  projectParam: string | undefined,
): { project: number } | undefined {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || KEEPS_ACCESS.test(url)) return undefined;
  const project =
    url.startsWith('/api/project/:id/') && /^\d{1,15}$/.test(projectParam ?? '') ? Number(projectParam) : 0;
  return { project };
}

interface Held {
  token: string;
  access: projects.ProjectAccess;
  projectId: number;
}

/** The gateway's decision for one caller and project: the access and its signed grant, or what the projects service refused with. */
export type Decision = { access: projects.ProjectAccess; token: string } | { error: unknown };

export class AccessGrants {
  private readonly cache = new LRUCache<string, Held>({ max: 50_000, ttl: GRANT_TTL_MS });

  constructor(
    private readonly secret: string,
    private readonly ask: (
      caller: common.Caller,
      projectId: number,
      request: FastifyRequest,
    ) => Promise<projects.ProjectAccess>,
  ) {}

  /** `caller`'s access to `projectId`, from the cache or the projects service (a refusal is not kept). */
  async decide(caller: common.Caller, projectId: number, request: FastifyRequest): Promise<Decision> {
    const key = `${caller.user_id}:${caller.organization_id}:${caller.is_staff ? 1 : 0}:${projectId}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const decidedAt = Date.now();
    let access: projects.ProjectAccess;
    try {
      access = await this.ask(caller, projectId, request);
    } catch (error) {
      return { error };
    }
    const token = this.secret ? signGrant(this.secret, caller, access, decidedAt) : '';
    this.cache.set(key, { token, access, projectId });
    return { access, token };
  }

  /** Drops the grants of one project (0: all of them). */
  drop(projectId: number): void {
    if (projectId === 0) {
      this.cache.clear();
      return;
    }
    for (const [key, held] of this.cache.entries()) if (held.projectId === projectId) this.cache.delete(key);
  }

  get size(): number {
    return this.cache.size;
  }
}

const isNotFound = (err: unknown) =>
  err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('404');

/** A project's (or schema's) id in a route: a positive integer of at most 15 digits. */
const ID = /^[1-9]\d{0,14}$/;

export const accessSubject = (prefix: string) => `${prefix ? `${prefix}.` : ''}fieldwork.access.changed`;

export default fp(
  async (
    app,
    opts: { clients: Clients; secret: string; nats?: { nc: NatsConnection; prefix: string }; log: Logger },
  ) => {
    app.decorateRequest('grant', '');
    const grants = new AccessGrants(opts.secret, (caller, projectId, request) =>
      opts.clients.projects.getAccess(
        { caller, project_id: projectId },
        { requestId: request.id, headers: { traceparent: request.traceparent } },
      ),
    );
    app.decorate('accessGrants', grants);
    app.decorateRequest('decision', undefined);

    // The project of each schema asked about (0: none); a schema never moves, so nothing here goes stale.
    const schemaProjects = new LRUCache<number, number>({ max: 100_000 });
    const projectOfSchema = async (schemaId: number, request: FastifyRequest): Promise<number> => {
      const known = schemaProjects.get(schemaId);
      if (known !== undefined) return known;
      const { project_id } = await opts.clients.forms.getSchemaProject(
        { schema_id: schemaId },
        { requestId: request.id, headers: { traceparent: request.traceparent } },
      );
      if (project_id > 0) schemaProjects.set(schemaId, project_id);
      return project_id;
    };

    /** This request's decision, made once (a person on a project's or a schema's route; undefined otherwise). */
    const decision = (request: FastifyRequest): Promise<Decision> | undefined => {
      const caller = request.caller as common.Caller | undefined;
      const param = (request.params as { id?: string } | undefined)?.id ?? '';
      if (!caller || caller.user_id <= 0 || !ID.test(param)) return undefined;
      const bySchema = isSchemaRoute(request.routeOptions.url ?? '');
      request.decision ??= (
        bySchema
          ? projectOfSchema(Number(param), request).then(
              async (project): Promise<Decision> => {
                if (project <= 0) return { error: problems.invalidSchemaId() };
                const d = await grants.decide(caller, project, request);
                // A form of a project the caller cannot see does not exist for them, as the forms service says.
                return 'error' in d && isNotFound(d.error) ? { error: problems.invalidSchemaId() } : d;
              },
              (error: unknown): Decision => ({ error }),
            )
          : grants.decide(caller, Number(param), request)
      ).then((d) => {
        if ('access' in d) request.grant = d.token;
        return d;
      });
      return request.decision;
    };

    // A route's need, checked here before any service is called: refused with what the projects service answered
    // (no access to the project) or 403 (not this permission). A malformed id (not a positive integer) is left to the route, which refuses it with the spec's message
    // ("Invalid Project Id!") before any service is asked.
    const check = async (request: FastifyRequest, allowed: (access: projects.ProjectAccess) => boolean) => {
      if (!ID.test((request.params as { id?: string } | undefined)?.id ?? '')) return;
      const d = await decision(request);
      if (!d) throw problems.notAuthenticated();
      if ('error' in d) throw d.error;
      if (!allowed(d.access)) {
        // Refused only because a workspace feature is off: say which, and who turns it on (issue 19).
        const off = d.access.feature_off_screens;
        if (d.access.feature_off && off.length > 0 && allowed({ ...d.access, screens: [...d.access.screens, ...off] }))
          throw problems.featureOff(d.access.feature_off, d.access.organization_id);
        throw problems.forbidden();
      }
    };

    // Each project route's need (route-access.ts), checked after the route's own preHandlers (authentication sets
    // request.caller), before its handler calls any service. A malformed project id is left to the route's own
    // refusal. Where the service alone decides (a collection link's respondents), the decision is still made for a
    // person, so that the grant reaches the service.
    app.addHook('onRoute', (route) => {
      if (!isProjectRoute(route.url)) return;
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) =>
        m === 'HEAD' ? 'GET' : m,
      );
      const needs = methods.map((m) => ROUTE_NEEDS[`${m} ${route.url}`]);
      const missing = methods.filter((_, i) => needs[i] === undefined);
      if (missing.length > 0)
        throw new Error(
          `${missing.join(', ')} ${route.url} declares no access need: add it to gateway/src/route-access.ts`,
        );
      const allowed = allows(needs[0]!);
      const own =
        route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      const needed: preHandlerHookHandler = allowed
        ? async (request) => check(request, allowed)
        : async (request) => {
            if (opts.secret) await decision(request);
          };
      route.preHandler = [...own, needed];
    });
    if (!opts.secret) return;

    let subscription: Subscription | undefined;
    if (opts.nats) {
      const { nc, prefix } = opts.nats;
      subscription = nc.subscribe(accessSubject(prefix), {
        callback: (err, msg) => {
          if (err) return opts.log.warn({ err }, 'access events ended');
          const project = Number((msg.json() as { project_id?: number }).project_id ?? 0);
          grants.drop(Number.isSafeInteger(project) && project > 0 ? project : 0);
        },
      });
    }
    // Dropped here before the answer leaves (the caller's next request sees the change), then on the other gateways.
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode >= 400) return payload;
      const change = accessChangedBy(
        request.method,
        request.routeOptions.url ?? '',
        (request.params as { id?: string } | undefined)?.id,
      );
      if (!change) return payload;
      grants.drop(change.project);
      if (opts.nats)
        opts.nats.nc.publish(accessSubject(opts.nats.prefix), JSON.stringify({ project_id: change.project }));
      return payload;
    });
    app.addHook('onClose', async () => {
      subscription?.unsubscribe();
    });
  },
  { name: 'access', dependencies: ['auth'] },
);
