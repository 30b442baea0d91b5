// Login attempts are slowed, never locked out (issue 18), and the slow-down cannot be turned against people (issue
// 30 item 9). Attempts are counted before the password is checked (so parallel guesses cannot slip past the count);
// a right password gives its attempt back, so the counters hold failures. Past a free allowance each further attempt
// must wait a delay doubling up to a cap, counted from the last attempt let through.
//
// Which counters an attempt meets depends on who makes it:
// - a device that signed in to this account before (it holds the device token its sign-in answered, sent in the
//   login body, never a cookie): only its own counter. Nobody else's guesses slow it, so the owner's phone or laptop signs in with the
//   right password while the account is under attack; a stolen token buys only as many guesses as anyone gets.
// - any other client: the account's counter of unknown devices (every address together: a guesser spread over many
//   addresses), the account's counter at this address (a guesser at one address is slowed after a few, long before
//   the account as a whole is), and the address's counter of failures at any account, whose allowance is far above
//   what a busy NAT (an office, a mobile carrier) sees from people's typos, and whose window is fixed, so that a
//   busy address, never idle, still forgets.
// Pure: the store keeps the counters and applies these rules under a row lock.

export interface ThrottlePolicy {
  /** Attempts let through at once within the window on one account from one address, and from one known device. */
  freeAttempts: number;
  /** Attempts on one account from devices it does not know, every address together, let through at once. */
  accountFreeAttempts: number;
  /** Failed attempts from one client address, every account together, let through within a window. */
  addressFreeAttempts: number;
  /** The first delay past the allowance, doubled per attempt. */
  baseDelayMs: number;
  /** The longest delay (so an account always takes some attempts an hour, and no one is locked out). */
  maxDelayMs: number;
  /** A counter idle this long starts again from zero; an address's counter starts again this long after it began. */
  windowMs: number;
}

/** A counter: attempts let through in the current window, when the last one was, and when the window began. */
export interface Counter {
  attempts: number;
  last_at: Date | null;
  started_at?: Date | null;
}

/** How a counter's window ends: after `windowMs` without an attempt, or `windowMs` after it began. */
export type WindowKind = 'idle' | 'fixed';

/** One counter a login meets: its key, its free allowance, and its kind of window. */
export interface CounterKey {
  key: string;
  free: number;
  window: WindowKind;
}

/** The counter as it stands at `now`: one whose window has passed counts from zero again. */
export function current(
  c: Counter | undefined,
  now: Date,
  policy: ThrottlePolicy,
  window: WindowKind = 'idle',
): Counter {
  const empty = { attempts: 0, last_at: null, started_at: null };
  if (!c || c.last_at === null) return empty;
  const from = window === 'fixed' ? (c.started_at ?? c.last_at) : c.last_at;
  if (now.getTime() - from.getTime() > policy.windowMs) return empty;
  return c;
}

/** The delay that must separate the next attempt from the last one, after `attempts` in the window. */
export function delayAfter(attempts: number, free: number, policy: ThrottlePolicy): number {
  if (attempts < free) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(30, attempts - free));
}

/** How long the next attempt must still wait (0: it may go now). */
export function waitMs(
  c: Counter | undefined,
  now: Date,
  free: number,
  policy: ThrottlePolicy,
  window: WindowKind = 'idle',
): number {
  const k = current(c, now, policy, window);
  const delay = delayAfter(k.attempts, free, policy);
  // An attempt within the free ones never waits, even when a parallel login saved a last_at later than `now`.
  if (k.last_at === null || delay === 0) return 0;
  return Math.max(0, delay - Math.max(0, now.getTime() - k.last_at.getTime()));
}

/** The counter after one more attempt let through at `now`. */
export function afterAttempt(
  c: Counter | undefined,
  now: Date,
  policy: ThrottlePolicy,
  window: WindowKind = 'idle',
): Counter {
  const k = current(c, now, policy, window);
  return { attempts: k.attempts + 1, last_at: now, started_at: k.started_at ?? now };
}

/**
 * The counters a login meets (see the top of this file): a known device's own, or else the account's, the
 * account's at this address and the address's. `device` is the id of a device token known to this account.
 */
export function throttleKeys(
  login: { userId: number | undefined; name: string; ip: string; device?: string | undefined },
  policy: Pick<ThrottlePolicy, 'freeAttempts' | 'accountFreeAttempts' | 'addressFreeAttempts'>,
): CounterKey[] {
  if (login.userId !== undefined && login.device)
    return [{ key: `d:${login.device}`, free: policy.freeAttempts, window: 'idle' }];
  const who = login.userId === undefined ? `n:${login.name}` : `a:${login.userId}`;
  const keys: CounterKey[] = [{ key: who, free: policy.accountFreeAttempts, window: 'idle' }];
  if (login.ip !== '') {
    keys.push({ key: `${who}@${login.ip}`, free: policy.freeAttempts, window: 'idle' });
    keys.push({ key: `ip:${login.ip}`, free: policy.addressFreeAttempts, window: 'fixed' });
  }
  return keys;
}

/** What a right password does to the counters it met: its own start again, the shared ones get the attempt back. */
export function afterSuccess(keys: CounterKey[]): { clear: string[]; refund: string[] } {
  const own = (k: CounterKey) => k.key.startsWith('d:') || (k.key.includes('@') && !k.key.startsWith('ip:'));
  return { clear: keys.filter(own).map((k) => k.key), refund: keys.filter((k) => !own(k)).map((k) => k.key) };
}

/**
 * Lets one attempt through, or says how long to wait: the longest wait of the counters it meets. A refused attempt
 * changes no counter, so waiting it out always works.
 */
export function gateAttempt(
  keys: CounterKey[],
  counters: Map<string, Counter>,
  now: Date,
  policy: ThrottlePolicy,
): { waitMs: number; attempts: number; save: Map<string, Counter> } {
  const wait = Math.max(0, ...keys.map((k) => waitMs(counters.get(k.key), now, k.free, policy, k.window)));
  const first = keys[0]!;
  if (wait > 0)
    return {
      waitMs: wait,
      attempts: current(counters.get(first.key), now, policy, first.window).attempts,
      save: new Map(),
    };
  const save = new Map(keys.map((k) => [k.key, afterAttempt(counters.get(k.key), now, policy, k.window)]));
  return { waitMs: 0, attempts: save.get(first.key)!.attempts, save };
}
