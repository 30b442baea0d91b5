// A real OpenID provider for tests (the oidc-provider package, a devDependency): on a free port on this machine,
// with one confidential test client (authorization code, PKCE required) and test accounts, signed in at its own
// development interaction screens (any password; the login is the account id). Never part of a deployment.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from './infra/net.js';

/** The test client's secret (a test value, never a deployment's). */
export const TEST_OIDC_CLIENT_SECRET = 'fieldwork-test-secret-0123456789abcdef';

export interface TestOidcAccount {
  /** The login typed at the provider's sign-in screen, and the ID token's sub. */
  login: string;
  email: string;
  email_verified?: boolean;
  name?: string;
}

interface OidcProviderModule {
  default: new (
    issuer: string,
    configuration: Record<string, unknown>,
  ) => { callback(): (req: IncomingMessage, res: ServerResponse) => void };
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_PROVIDERS for the auth service: this provider under `id`. */
  providersEnv(id?: string, name?: string): string;
  /** Adds (or replaces) an account the provider signs in. */
  addAccount(account: TestOidcAccount): void;
  stop(): Promise<void>;
}

export async function startTestOidcProvider(options: {
  /** The redirect URIs the test client may use (the web app's /login-home/oauth). */
  redirectUris: string[];
  accounts?: TestOidcAccount[];
  port?: number;
  /**
   * Any login that is an email address signs in as an account with that (verified) address, so tests in other
   * processes can use accounts this one was never told of.
   */
  anyEmail?: boolean;
}): Promise<TestOidcProvider> {
  // A devDependency without types of its own: the little used here is typed by hand (OidcProviderModule).
  const moduleName: string = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as OidcProviderModule;
  const port = options.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'fieldwork-test';
  const clientSecret = TEST_OIDC_CLIENT_SECRET;
  const accounts = new Map<string, TestOidcAccount>();
  for (const a of options.accounts ?? []) accounts.set(a.login, a);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    cookies: { keys: ['fieldwork-test-oidc-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, sub: string) => {
      const a =
        accounts.get(sub) ??
        (options.anyEmail && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(sub) ? { login: sub, email: sub } : undefined);
      if (!a) return undefined;
      const words = (a.name ?? '').split(/\s+/).filter(Boolean);
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: a.email,
          email_verified: a.email_verified ?? true,
          ...(a.name
            ? {
                name: a.name,
                given_name: words[0],
                family_name: words.length > 1 ? words[words.length - 1] : undefined,
              }
            : {}),
        }),
      };
    },
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    issuer,
    clientId,
    clientSecret,
    providersEnv: (id = 'testidp', name = 'Test Identity Provider') =>
      JSON.stringify([{ id, name, issuer, client_id: clientId, client_secret: clientSecret }]),
    addAccount: (a) => accounts.set(a.login, a),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Goes through the provider's own screens as a browser would, without one: follows the authorization URL's
 * redirects with the provider's cookies, signs in as `login` at its sign-in form, consents, and answers the URL it
 * sends back to (the redirect URI with code, state and iss). For tests of the code paths below the browser.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = new URL(authorizationUrl);
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: cookieHeader() } });
    keep(res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next;
      init = { method: 'GET' };
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action)
      throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.set(m[1]!, m[2]!);
    if (html.includes('name="login"')) {
      form.set('login', login);
      form.set('password', 'any password');
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
    init = {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('the provider never sent the browser back');
}
