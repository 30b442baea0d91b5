// Where the session lives in the browser. The spec keeps the access token in local storage; the refresh token and
// the time of the last refresh are kept there too, so a reload does not log the user out (the refresh token rotates
// on every use and the server revokes the whole session if an old one is replayed).
const KEYS = {
  access: 'fw.access',
  refresh: 'fw.refresh',
  lastRefresh: 'fw.lastRefresh',
  lastLogin: 'fw.lastLogin',
} as const;

/** Refresh the access token before a call when the last refresh was this long ago or more (spec 000 §9). */
export const REFRESH_THRESHOLD_MS = 30 * 60 * 1000;
/** The timer that records the last-login time (spec 000 §9). */
export const SESSION_TIMER_MS = 300_000;

export interface StoredSession {
  access: string | null;
  refresh: string | null;
  lastRefresh: number;
}

export const session = {
  read(): StoredSession {
    return {
      access: localStorage.getItem(KEYS.access),
      refresh: localStorage.getItem(KEYS.refresh),
      lastRefresh: Number(localStorage.getItem(KEYS.lastRefresh) ?? 0),
    };
  },
  /** Stores a fresh pair (login or refresh) and stamps the refresh time. */
  store(access: string, refresh: string, now = Date.now()): void {
    localStorage.setItem(KEYS.access, access);
    localStorage.setItem(KEYS.refresh, refresh);
    localStorage.setItem(KEYS.lastRefresh, String(now));
  },
  /** An access token without a refresh token (a one-time token from a link); it lasts until it expires. */
  storeAccessOnly(access: string, now = Date.now()): void {
    localStorage.setItem(KEYS.access, access);
    localStorage.setItem(KEYS.lastRefresh, String(now));
  },
  clear(): void {
    for (const k of Object.values(KEYS)) localStorage.removeItem(k);
    // The API answers kept for offline use belong to this user: drop them (responses waiting on the device stay,
    // and upload at that user's next login).
    if (typeof caches !== 'undefined') void caches.delete('fw-api').catch(() => undefined);
  },
  recordLastLogin(now = Date.now()): void {
    if (localStorage.getItem(KEYS.access)) localStorage.setItem(KEYS.lastLogin, String(now));
  },
  lastLogin(): number {
    return Number(localStorage.getItem(KEYS.lastLogin) ?? 0);
  },
};

/** A refresh is due when the last one was REFRESH_THRESHOLD_MS ago or more. */
export function refreshDue(lastRefresh: number, now = Date.now()): boolean {
  return now - lastRefresh >= REFRESH_THRESHOLD_MS;
}

/**
 * Device tokens (docs/security.md, "known devices"): what a password sign-in answers, kept per login name on this
 * browser and sent with the next sign-in to that account, so that other people's wrong guesses never slow this
 * device down. Not part of the session: signing out keeps them. At most `DEVICE_NAMES_KEPT` names.
 */
const DEVICES_KEY = 'fw.devices';
const DEVICE_NAMES_KEPT = 20;

function readDevices(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DEVICES_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export const devices = {
  /** The device token kept for a login name (lower-cased, trimmed), if any. */
  for(login: string): string | undefined {
    return readDevices()[login.trim().toLowerCase()];
  },
  /** Keeps `token` for every name the account signs in with (what was typed, its username and its email). */
  remember(names: string[], token: string): void {
    if (token === '') return;
    const fresh = new Set(names.map((n) => n.trim().toLowerCase()).filter((n) => n !== ''));
    // The names just used go last, so the oldest are the ones dropped past DEVICE_NAMES_KEPT.
    const entries = [
      ...Object.entries(readDevices()).filter(([name]) => !fresh.has(name)),
      ...[...fresh].map((name) => [name, token] as const),
    ].slice(-DEVICE_NAMES_KEPT);
    localStorage.setItem(DEVICES_KEY, JSON.stringify(Object.fromEntries(entries)));
  },
};
