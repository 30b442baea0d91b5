// The browser's half of authorization code + PKCE (RFC 7636): a random code verifier kept in this tab's session
// storage with the state of the request, and its S256 challenge sent to start the sign-in.

const KEY = 'fieldwork.oidc';

export interface PendingSignIn {
  provider: string;
  verifier: string;
  state: string;
  /** Where to go after signing in (the login page's `next`). */
  next: string | null;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A new verifier (43 characters of base64url: 32 random bytes) and its S256 challenge. */
export async function newPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export function savePending(p: PendingSignIn): void {
  sessionStorage.setItem(KEY, JSON.stringify(p));
}

/** The sign-in this tab started, taken (a verifier is used once). */
export function takePending(): PendingSignIn | null {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PendingSignIn;
  } catch {
    return null;
  }
}
