// Reads the payload of an access token (no verification: the server does that).
export interface AccessClaims {
  user_id: number;
  exp?: number;
}

export function decodeAccess(token: string | null): AccessClaims | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const claims = JSON.parse(json) as Partial<AccessClaims>;
    return typeof claims.user_id === 'number' ? (claims as AccessClaims) : null;
  } catch {
    return null;
  }
}
