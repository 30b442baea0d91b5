// Identity providers of the deployment (OpenID Connect), their configuration and the rules of sign-in through them.
// Pure: no I/O.
import { createHash } from 'node:crypto';
import { z } from '@fieldwork/service-kit';

/** One provider of OIDC_PROVIDERS (a JSON array). */
const providerShape = z.object({
  /** Stable id, sent by the web app as identity_provider and kept with every linked account. */
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, - and _ (at most 40)'),
  /** The button's label: "Sign in with {name}". */
  name: z.string().min(1).max(80),
  /** The issuer URL; its /.well-known/openid-configuration is read at the first use. */
  issuer: z.url(),
  client_id: z.string().min(1),
  /** Empty for a public client (PKCE alone). */
  client_secret: z.string().default(''),
  /** Scopes asked for; openid is always among them. */
  scopes: z.array(z.string().min(1)).default(['openid', 'email', 'profile']),
  /** When set, the provider is offered only for emails of these domains (the login page asks with the email). */
  email_domains: z.array(z.string().min(1)).default([]),
});

export type IdentityProviderConfig = z.infer<typeof providerShape>;

export const OIDC_MESSAGES = {
  unknownProvider: 'Unknown identity provider.',
  flowExpired: 'This sign-in has expired or was already used. Please sign in again.',
  verifierMismatch: 'The sign-in could not be verified (the code verifier does not match). Please sign in again.',
  refused: 'The identity provider did not confirm the sign-in. Please sign in again.',
  unverifiedEmail: 'The identity provider did not confirm your email address, so no account can be matched to it.',
  noEmail: 'The identity provider did not give an email address, so no account can be matched to it.',
  noAccount: 'No account uses this email address. Ask a workspace administrator to invite you, then sign in again.',
  inactive: 'User account is disabled.',
  signupDisabled: 'Sign-up is not enabled on this server.',
} as const;

/** Parses OIDC_PROVIDERS ('' = none); throws naming what is wrong. */
export function parseProviders(raw: string): IdentityProviderConfig[] {
  if (raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('OIDC_PROVIDERS: is not JSON (an array of {id, name, issuer, client_id, client_secret?})');
  }
  const parsed = z.array(providerShape).safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new Error(`OIDC_PROVIDERS: ${first.path.join('.')}: ${first.message}`);
  }
  const ids = new Set<string>();
  for (const p of parsed.data) {
    if (ids.has(p.id)) throw new Error(`OIDC_PROVIDERS: the id ${p.id} is used twice`);
    ids.add(p.id);
    if (!p.scopes.includes('openid')) p.scopes.unshift('openid');
    p.email_domains = p.email_domains.map((d) => d.toLowerCase().replace(/^@/, ''));
  }
  return parsed.data;
}

/** The providers offered: those for every address, plus those kept for the email's domain when one is given. */
export function offeredProviders(providers: IdentityProviderConfig[], email: string): IdentityProviderConfig[] {
  const domain = email.trim().toLowerCase().split('@')[1] ?? '';
  return providers.filter((p) => p.email_domains.length === 0 || (domain !== '' && p.email_domains.includes(domain)));
}

/** RFC 7636 S256: base64url(sha256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A PKCE code verifier (RFC 7636 §4.1): 43 to 128 characters of [A-Za-z0-9-._~]. */
export const isCodeVerifier = (v: string) => /^[A-Za-z0-9\-._~]{43,128}$/.test(v);
/** An S256 challenge: 43 base64url characters. */
export const isCodeChallenge = (v: string) => /^[A-Za-z0-9_-]{43}$/.test(v);

/** Names from the claims: given/family names, else the full name split (spec 000 §5), else nothing. */
export function namesFromClaims(claims: Record<string, unknown>): { first_name: string; last_name: string } {
  const str = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 150) : '');
  const given = str(claims.given_name);
  const family = str(claims.family_name);
  if (given !== '' || family !== '') return { first_name: given, last_name: family };
  const words = str(claims.name).split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first_name: '', last_name: '' };
  return { first_name: words[0]!, last_name: words.length > 1 ? words[words.length - 1]! : '' };
}

/** The email of the claims if the provider says it verified it. */
export function verifiedEmail(claims: Record<string, unknown>): { email: string; verified: boolean } {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  return { email, verified: claims.email_verified === true || claims.email_verified === 'true' };
}
