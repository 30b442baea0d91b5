// Login attempts are slowed, never locked out (issue 18): a stranger who knows a login name must not be able to keep
// its owner out. Attempts are counted before the password is checked (so parallel guesses cannot slip past the
// count), per account (every login name of it together), and per client address; past a free allowance each further
// attempt must wait a delay doubling up to a cap, counted from the last attempt let through. Pure: the store keeps
// the counters and applies these rules under a row lock.

export interface ThrottlePolicy {
  /** Attempts on an account within the window that are let through at once. */
  freeAttempts: number;
  /** Failed attempts from one client address within the window let through at once. */
  addressFreeAttempts: number;
  /** The first delay past the allowance, doubled per attempt. */
  baseDelayMs: number;
  /** The longest delay (so an account always takes some attempts an hour, and no one is locked out). */
  maxDelayMs: number;
  /** A counter idle this long starts again from zero. */
  windowMs: number;
}

/** A counter: attempts let through in the current window, and when the last one was. */
export interface Counter {
  attempts: number;
  last_at: Date | null;
}

/** The counter as it stands at `now`: an idle one (past the window) counts from zero again. */
export function current(c: Counter | undefined, now: Date, policy: ThrottlePolicy): Counter {
  if (!c || c.last_at === null || now.getTime() - c.last_at.getTime() > policy.windowMs)
    return { attempts: 0, last_at: null };
  return c;
}

/** The delay that must separate the next attempt from the last one, after `attempts` in the window. */
export function delayAfter(attempts: number, free: number, policy: ThrottlePolicy): number {
  if (attempts < free) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(30, attempts - free));
}

/** How long the next attempt must still wait (0: it may go now). */
export function waitMs(c: Counter | undefined, now: Date, free: number, policy: ThrottlePolicy): number {
  const k = current(c, now, policy);
  const delay = delayAfter(k.attempts, free, policy);
  // An attempt within the free ones never waits, even when a parallel login saved a last_at later than `now`.
  if (k.last_at === null || delay === 0) return 0;
  return Math.max(0, delay - Math.max(0, now.getTime() - k.last_at.getTime()));
}

/** The counter after one more attempt let through at `now`. */
export function afterAttempt(c: Counter | undefined, now: Date, policy: ThrottlePolicy): Counter {
  return { attempts: current(c, now, policy).attempts + 1, last_at: now };
}

/** The counter keys of a login: the account (or the name when there is none) and the client address. */
export function throttleKeys(login: { userId: number | undefined; name: string; knownAddress: boolean; ip: string }): {
  account: string;
  address: string | undefined;
} {
  const who = login.userId === undefined ? `n:${login.name}` : `a:${login.userId}`;
  // From an address this account signed in from before, its owner has a counter of their own: a stranger elsewhere
  // who slows the account down does not slow them.
  return {
    account: login.knownAddress && login.ip !== '' ? `${who}@${login.ip}` : who,
    address: login.ip === '' ? undefined : `ip:${login.ip}`,
  };
}
