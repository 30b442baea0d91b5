// The gateway built for app.inject route tests (Fastify demo's test/helper.ts): fake gRPC clients that record every
// call and answer the empty (default) reply of its method unless a test says otherwise, a token per role, and a fake
// projects.getAccess answering the ProjectAccess each role holds in spec 000 §6, written out here by hand (never
// asked of packages/access: the expected values must not come from the code under test).
import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PROJECT_ACTIONS, SCREEN_PERMISSIONS } from '@fieldwork/access';
import { auth, exports_, forms, projects, responses, results } from '@fieldwork/proto';
import { createLogger, problems } from '@fieldwork/service-kit';
import { buildGateway, type GatewayOptions } from '../app.js';
import { SERVICE_NAMES, type Clients } from '../clients.js';

export const JWT_SECRET = 'route-tests-secret-'.padEnd(40, 'x');

/**
 * The callers of the route tests: workspace roles (owner; wsProjectAdmin: the workspace's project_admin flag), the
 * project roles of spec 000 §6, a project user with read_sites only, a guest (project user without a role), staff,
 * and an outsider (a user of another workspace, to whom the project does not exist).
 */
export const ROLES = [
  'owner',
  'wsProjectAdmin',
  'projectOwner',
  'projectAdmin',
  'staffAdmin',
  'researcher',
  'collector',
  'dataManager',
  'readSites',
  'guest',
  'staff',
  'outsider',
] as const;
export type Role = (typeof ROLES)[number];

/** The user id of each role's caller. */
export const USER_IDS: Record<Role, number> = Object.fromEntries(ROLES.map((r, i) => [r, 101 + i])) as Record<
  Role,
  number
>;

const ALL_ACTIONS = [...PROJECT_ACTIONS];
const ALL_SCREENS = [...SCREEN_PERMISSIONS];
const NO_ROLES = {
  project_owner: false,
  project_admin: false,
  researcher: false,
  collector: false,
  data_manager: false,
  staff_admin: false,
};

/**
 * Spec 000 §6, role by role: "Workspace-level permissions imply project permissions" (the owner and the workspace's
 * project admin hold everything, as staff do: "everything allowed"); "Project roles and actions" for the actions;
 * "Screen access" for the screens; "Results are also visible to a user with read_sites". The staff admin has screens
 * only (home, staff). Undefined: the project is not the caller's to see (another workspace).
 */
const ACCESS: Record<Role, Omit<projects.ProjectAccess, 'project_id'> | undefined> = {
  owner: access({ actions: ALL_ACTIONS, screens: ALL_SCREENS }),
  wsProjectAdmin: access({ actions: ALL_ACTIONS, screens: ALL_SCREENS }),
  staff: access({ actions: ALL_ACTIONS, screens: ALL_SCREENS }),
  projectOwner: access({
    actions: ALL_ACTIONS,
    screens: ALL_SCREENS,
    roles: { ...NO_ROLES, project_owner: true },
  }),
  projectAdmin: access({
    actions: ALL_ACTIONS,
    screens: ['home', 'parameters', 'form'],
    roles: { ...NO_ROLES, project_admin: true },
  }),
  staffAdmin: access({ actions: [], screens: ['home', 'staff'], roles: { ...NO_ROLES, staff_admin: true } }),
  researcher: access({ actions: ['results'], screens: ['home', 'results'], roles: { ...NO_ROLES, researcher: true } }),
  collector: access({
    actions: ['collect', 'edit', 'delete'],
    screens: ['home', 'collector'],
    roles: { ...NO_ROLES, collector: true },
  }),
  dataManager: access({
    actions: ['editCompleted', 'changeStatus', 'edit', 'delete'],
    screens: ['home', 'dataManager'],
    roles: { ...NO_ROLES, data_manager: true },
  }),
  readSites: access({ actions: [], screens: [], read_sites: [5] }),
  guest: access({ actions: [], screens: [] }),
  outsider: undefined,
};

function access(a: Partial<projects.ProjectAccess>): Omit<projects.ProjectAccess, 'project_id'> {
  return projects.ProjectAccess.fromPartial({
    organization_id: 1,
    project_state: 'draft',
    project_type: 'standard',
    roles: NO_ROLES,
    ...a,
  });
}

/** One recorded gRPC call of a fake client. */
export interface Call {
  service: string;
  method: string;
  req: Record<string, unknown>;
  /** The call's metadata: request id and headers (the signed grant of a project's route among them). */
  meta: { requestId?: string; headers?: Record<string, string> };
}

type Answer = (req: Record<string, unknown>) => unknown;

const DEFINITIONS: Record<Exclude<(typeof SERVICE_NAMES)[number], never>, object> = {
  auth: auth.AuthServiceService,
  projects: projects.ProjectsServiceService,
  forms: forms.FormsServiceService,
  responses: responses.ResponsesServiceService,
  results: results.ResultsServiceService,
  exports: exports_.ExportsServiceService,
};

export interface TestGateway {
  app: FastifyInstance;
  /** app.inject, the request remembered in `requested`. */
  inject: (request: InjectOptions) => Promise<LightMyRequestResponse>;
  /** Every request sent through inject or byRole (never reset): which routes a test file reached. */
  requested: { method: string; url: string }[];
  /** Every service call since the last reset(), getAccess included. */
  calls: Call[];
  /** The service calls since the last reset(), without the access decisions (projects.getAccess, and
   * forms.getSchemaProject for a form's routes). */
  serviceCalls: () => Call[];
  /** A valid access token of the role's caller. */
  token: (role: Role) => string;
  /** `Authorization` header of the role's caller. */
  as: (role: Role) => { authorization: string };
  /** The next calls of `service.method` answer this (a value, or a function of the request; throw to refuse). */
  answer: (service: string, method: string, answer: Answer | object) => void;
  /** Forgets the calls and the answers given (the default empty replies answer again). */
  reset: () => void;
  /**
   * Sends one request as each role (after reset() and `prepare`): each role's status, the answers of the refused
   * (4xx) and the refused roles whose request reached a service all the same.
   */
  byRole: (request: InjectOptions, prepare?: () => void) => Promise<ByRole>;
  close: () => Promise<void>;
}

export interface ByRole {
  status: Record<Role, number>;
  refusals: Partial<Record<Role, unknown>>;
  leaked: Role[];
}

/** The gateway with fake clients; the access decisions answer `ACCESS` of the caller's role. */
/** `options`: gateway options over the tests' own (trustedProxies, say). */
export async function buildTestGateway(options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  const calls: Call[] = [];
  const answers = new Map<string, Answer>();
  const roleOf = new Map<number, Role>(ROLES.map((r) => [USER_IDS[r], r]));
  const fake = (service: string, definition: object) =>
    Object.fromEntries(
      Object.entries(definition as Record<string, { responseDeserialize: (b: Buffer) => unknown }>).map(
        ([method, def]) => [
          method,
          async (req: Record<string, unknown>, meta: Call['meta'] = {}) => {
            calls.push({ service, method, req, meta });
            const given = answers.get(`${service}.${method}`);
            if (given) return given(req);
            if (service === 'projects' && method === 'getAccess') return decideAccess(req);
            // Every form the tests name belongs to project 7 (the gateway decides a form's routes for its project).
            if (service === 'forms' && method === 'getSchemaProject') return { project_id: 7 };
            // The method's empty reply: every field at its default, as ts-proto's X.fromPartial({}).
            return def.responseDeserialize(Buffer.alloc(0));
          },
        ],
      ),
    );
  const decideAccess = (req: Record<string, unknown>) => {
    const caller = req.caller as { user_id: number };
    const role = roleOf.get(caller.user_id);
    const granted = role === undefined ? undefined : ACCESS[role];
    // Another workspace's project: the projects service answers 404, as for a project that does not exist.
    if (!granted) throw problems.notFound();
    return projects.ProjectAccess.fromPartial({ ...granted, project_id: Number(req.project_id) });
  };
  const clients = {
    ...Object.fromEntries(Object.entries(DEFINITIONS).map(([name, def]) => [name, fake(name, def)])),
    health: Object.fromEntries(SERVICE_NAMES.map((n) => [n, async () => 'SERVING'])),
    close: () => undefined,
  } as unknown as Clients;
  const app = await buildGateway({
    clients,
    log: createLogger('gateway', 'silent'),
    options: {
      jwtSecret: JWT_SECRET,
      contextSecret: 'route-tests-context-'.padEnd(40, 'y'),
      bodyLimit: 1024 * 1024,
      corsOrigins: '',
      webDir: '',
      tls: false,
      rateLimits: { login: 10_000, lookup: 10_000, mail: 10_000, reports: 10_000 },
      // The single-machine object store's routes too (nothing is written: no test sends a valid signature).
      files: { dir: join(tmpdir(), 'fieldwork-route-tests'), secret: 'route-tests-files-'.padEnd(40, 'z') },
      ...options,
    },
  });
  await app.ready();
  const tokens = new Map(
    ROLES.map((r) => [
      r,
      app.jwt.sign({
        user_id: USER_IDS[r],
        sid: `session-${r}`,
        is_staff: r === 'staff',
        is_superuser: false,
        token_type: 'access',
      }),
    ]),
  );
  const reset = () => {
    calls.length = 0;
    answers.clear();
    // The access decisions are kept per caller and project for 15 s: each test asks afresh.
    app.accessGrants.drop(0);
  };
  const requested: TestGateway['requested'] = [];
  const inject = (request: InjectOptions) => {
    requested.push({ method: request.method ?? 'GET', url: request.url as string });
    return app.inject(request);
  };
  const serviceCalls = () =>
    calls.filter(
      (c) =>
        !(c.service === 'projects' && c.method === 'getAccess') &&
        !(c.service === 'forms' && c.method === 'getSchemaProject'),
    );
  return {
    app,
    inject,
    requested,
    calls,
    serviceCalls,
    token: (role) => tokens.get(role)!,
    as: (role) => ({ authorization: `JWT ${tokens.get(role)!}` }),
    answer: (service, method, answer) => {
      answers.set(`${service}.${method}`, typeof answer === 'function' ? (answer as Answer) : () => answer);
    },
    reset,
    byRole: async (request, prepare) => {
      const out: ByRole = { status: {} as Record<Role, number>, refusals: {}, leaked: [] };
      for (const role of ROLES) {
        reset();
        prepare?.();
        const res = await inject({
          ...request,
          headers: { ...request.headers, authorization: `JWT ${tokens.get(role)!}` },
        });
        out.status[role] = res.statusCode;
        if (res.statusCode >= 400 && res.statusCode < 500) {
          out.refusals[role] = res.json();
          if (serviceCalls().length > 0) out.leaked.push(role);
        }
      }
      return out;
    },
    close: () => app.close(),
  };
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** An HS256 JWT signed with `secret` (another deployment's, or ours with claims the gateway must refuse). */
export function signJwt(secret: string, claims: Record<string, unknown>): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}
