// A small typed client of the gateway's REST API for setting journeys up (what the journey is not about is done
// over HTTP, quickly), and the accounts the journeys log in with.
import { randomBytes } from 'node:crypto';
import { seedDemo } from '@fieldwork/launcher';
import type { SchemaBody } from '@fieldwork/sampler';
import { latestMail } from './db.js';
import { grpcAddress, type StackInfo } from './stack.js';

export interface Credentials {
  /** What the login form takes: the username, or the email of a user made by a project-user call. */
  username: string;
  password: string;
}

export interface Account extends Credentials {
  email: string;
  userId: number;
  /** The user's workspace (the one it owns, for an owner). */
  organizationId: number;
}

/** The answer of POST api-token-auth/. */
export interface Session {
  access: string;
  refresh: string;
  user: { id: number; email: string };
  organization: { id: number };
}

export interface Answer<T> {
  status: number;
  body: T;
}

export interface Project {
  id: number;
  name: string;
  sampler_schemas: { id: number }[];
  /** The project's sites, its Default Site first. */
  sites?: { id: number; name: string }[];
}

/** A project role of spec 000 §6, as the project-user call takes it (a flag named after it). */
export type ProjectRole = 'project_owner' | 'project_admin' | 'researcher' | 'collector' | 'data_manager';

/** A short id that no other run or journey on this stack uses: for names, emails and usernames. */
export function uniqueId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/** Logs in over the API; undefined when the gateway refuses the credentials. */
export async function apiLogin(baseUrl: string, who: Credentials): Promise<Session | undefined> {
  const r = await fetch(`${baseUrl}/api/api-token-auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: who.username, password: who.password }),
  });
  return r.status === 200 ? ((await r.json()) as Session) : undefined;
}

/**
 * A fresh user who owns a fresh workspace holding the demo's two projects ("Household Survey", "Water Points"),
 * made by the launcher's seed over gRPC. The terms and privacy policy are not accepted yet. Each journey gets its
 * own, so that none sees another's projects, password or settings.
 */
export async function createOwner(stack: StackInfo, label = 'owner'): Promise<Account> {
  const id = uniqueId();
  const who = {
    username: `${label}-${id}`,
    email: `${label}.${id}@example.org`,
    password: `pass ${id} e2e`,
    workspace: `Workspace ${id}`,
  };
  const seeded = await seedDemo(
    { auth: grpcAddress(stack, 'auth'), projects: grpcAddress(stack, 'projects'), secret: stack.contextSecret },
    who,
  );
  return {
    username: who.username,
    email: who.email,
    password: who.password,
    userId: seeded.userId,
    organizationId: seeded.organizationId,
  };
}

/** The API as one logged-in user. Paths are relative to /api/, as in the spec. */
export class Api {
  private constructor(
    readonly baseUrl: string,
    readonly session: Session,
    private readonly stack: StackInfo | undefined,
  ) {}

  /** `stack` (its database) lets the people this user adds confirm their invitations (addProjectUser). */
  static async login(baseUrl: string, who: Credentials, stack?: StackInfo): Promise<Api> {
    const session = await apiLogin(baseUrl, who);
    if (!session) throw new Error(`the gateway refused the login of ${who.username}`);
    return new Api(baseUrl, session, stack);
  }

  /** Any call; the body is parsed JSON (or {} when empty). Does not throw on an error status. */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const res = await fetch(`${this.baseUrl}/api/${path}`, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `JWT ${this.session.access}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as T };
  }

  get<T = unknown>(path: string): Promise<Answer<T>> {
    return this.request<T>('GET', path);
  }

  /** A call that must succeed (2xx): answers the body, or throws with the status and body. */
  async must<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.request<T>(method, path, body);
    if (r.status < 200 || r.status > 299)
      throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  }

  /** A project in the user's workspace, with its (empty) sampler schema. */
  createProject(name: string, at: { lat: number; lng: number } = { lat: 1, lng: 2 }): Promise<Project> {
    return this.must<Project>('POST', 'project/', {
      name,
      organization_pk: this.session.organization.id,
      geotag: { type: 'Point', coordinates: [at.lng, at.lat] },
    });
  }

  /** Saves a form built with @fieldwork/sampler's addBlock/addItem/... as the given revision (1 for a new schema). */
  async saveSchema(schemaId: number, body: SchemaBody, revision = 1): Promise<void> {
    await this.must('PUT', `samplerschema/${schemaId}/`, { ...body, revision });
  }

  /**
   * A new user with one role in a project (the project-user call of spec 000 §5), who confirmed the invitation mailed
   * to them by choosing their password with its link (docs/security.md: nobody chooses another's password). It logs
   * in with its email as username; like every new user, it has not accepted the terms yet. Named `label` and a unique id unless `person`
   * gives a name; placed in the project's site, group and team `person` gives (none by default).
   */
  async addProjectUser(
    projectId: number,
    role: ProjectRole,
    label: string = role,
    person: { firstName?: string; lastName?: string; site?: number; group?: number; team?: number } = {},
  ): Promise<Account> {
    const id = uniqueId();
    const email = `${label}.${id}@example.org`;
    const password = `pass ${id} e2e`;
    const made = await this.must<{ user_id: number }>('POST', 'api/v1/project-user/', {
      email,
      first_name: person.firstName ?? label,
      last_name: person.lastName ?? id,
      projectId,
      [role]: true,
      ...(person.site ? { site: person.site } : {}),
      ...(person.group ? { group: person.group } : {}),
      ...(person.team ? { team: person.team } : {}),
    });
    await this.confirmInvitation(email, password);
    return { username: email, email, password, userId: made.user_id, organizationId: this.session.organization.id };
  }

  /** What the invited person does: opens the newest invitation mailed to `email` and chooses `password` with it. */
  async confirmInvitation(email: string, password: string): Promise<void> {
    if (!this.stack) throw new Error('Api.login(baseUrl, who, stack) is needed to read the invitation mail');
    const mail = await latestMail(this.stack, email, 'invitation');
    const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail)?.[1];
    if (!nonce) throw new Error(`the invitation to ${email} has no set-password link`);
    const r = await fetch(`${this.baseUrl}/api/accounts/user/${encodeURIComponent(email)}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nonce, password }),
    });
    if (r.status !== 200) throw new Error(`setting the password of ${email} answered ${r.status}`);
  }

  /** An anonymous collection link (survey) of a project. */
  createSurvey(projectId: number, expiry = '2099-01-01T00:00:00Z'): Promise<{ token: string }> {
    return this.must<{ token: string }>('POST', `project/${projectId}/surveys/`, { expiry_date: expiry });
  }
}
