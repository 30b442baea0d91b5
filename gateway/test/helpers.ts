// Shared helpers of the API end-to-end tests: an HTTP client for the stack's gateway, logins and users.
import type { TestStack } from '@fieldwork/launcher';
import { auth } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import postgres from 'postgres';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export type Api = <T = Record<string, unknown>>(
  method: string,
  path: string,
  options?: { body?: unknown; token?: string; headers?: Record<string, string>; form?: FormData },
) => Promise<Answer<T>>;

export function client(t: TestStack): Api {
  return async (method, path, options = {}) => {
    const res = await fetch(`${t.baseUrl}/api/${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token
          ? { authorization: options.token.startsWith('fwk_') ? `Api-Key ${options.token}` : `JWT ${options.token}` }
          : {}),
        ...options.headers,
      },
      body:
        options.form ??
        (options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body)),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: res.status, body: body as never, headers: res.headers };
  };
}

export interface Session {
  access: string;
  refresh: string;
  user: { id: number; email: string };
  organization: { id: number };
}

export async function login(api: Api, username: string, password: string): Promise<Session> {
  const r = await api<Session>('POST', 'api-token-auth/', { body: { username, password } });
  if (r.status !== 200) throw new Error(`login of ${username} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export const point = (lat: number, lng: number) => ({ type: 'Point', coordinates: [lng, lat] });

/**
 * Turns workspace features on for the demo workspace (as an operator does with the CLI: imports and SQL access are
 * behind `ingestion`), then logs the demo owner in again so the session carries them.
 */
export async function demoOwnerWithFeatures(t: TestStack, api: Api, enable: string[]): Promise<Session> {
  const admin = createClient(auth.AuthServiceClient, `127.0.0.1:${t.ports.auth}`, { secret: t.contextSecret });
  try {
    await admin.adminSetFeatures({ organization_id: t.demo.organizationId, enable, disable: [] });
  } finally {
    admin.close();
  }
  return login(api, t.demo.username, t.demo.password);
}

const outboxes = new Map<string, postgres.Sql>();

/** The body of the newest mail to `to` whose subject contains `subject`, waiting up to 5 s for the auth service. */
export async function latestMail(t: TestStack, to: string, subject: string): Promise<string> {
  let db = outboxes.get(t.infra.databaseUrl);
  if (!db) {
    db = postgres(t.infra.databaseUrl, { max: 1, onnotice: () => undefined, idle_timeout: 5 });
    outboxes.set(t.infra.databaseUrl, db);
  }
  for (let i = 0; i < 50; i++) {
    const [mail] = await db<{ body: string }[]>`
      select body from auth.mail_outbox where lower(to_address) = ${to.toLowerCase()} and subject ilike ${`%${subject}%`}
      order by id desc limit 1`;
    if (mail) return mail.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} about "${subject}"`);
}

/**
 * Does what the person an account was made for does (issue 30 item 2): opens the invitation mailed to `email` and
 * chooses `password` with its link, which also accepts the invitation. Answers the link's nonce.
 */
export async function acceptInvitation(t: TestStack, api: Api, email: string, password: string): Promise<string> {
  const body = await latestMail(t, email, 'invitation');
  const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(body)?.[1];
  if (!nonce) throw new Error(`the invitation to ${email} has no set-password link: ${body}`);
  const r = await api('POST', `accounts/user/${encodeURIComponent(email)}/reset`, { body: { nonce, password } });
  if (r.status !== 200)
    throw new Error(`setting the password of ${email} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return nonce;
}
