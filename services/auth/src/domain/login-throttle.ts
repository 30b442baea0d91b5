// Repeated failed logins are slowed, then locked out for a while. Pure: the store keeps the counters.

export interface ThrottlePolicy {
  /** Failures after which each further failure is answered more slowly. */
  slowAfter: number;
  /** Base delay of the slow-down, doubled per extra failure, capped at 8 times. */
  slowMs: number;
  /** Failures within the window that lock the username. */
  lockAfter: number;
  /** Minutes of lockout, and the window in which failures count. */
  lockMinutes: number;
}

export interface AttemptState {
  failures: number;
  first_failure_at: Date;
  locked_until: Date | null;
}

/** Whether a login for this username may be tried now, and if not, for how many minutes it stays locked. */
export function lockStatus(state: AttemptState | undefined, now: Date): { locked: false } | { locked: true; minutes: number } {
  if (state?.locked_until && state.locked_until > now) {
    return { locked: true, minutes: Math.max(1, Math.ceil((state.locked_until.getTime() - now.getTime()) / 60_000)) };
  }
  return { locked: false };
}

/** The state after one more failure: failures older than the window start a new count. */
export function afterFailure(state: AttemptState | undefined, now: Date, policy: ThrottlePolicy): AttemptState {
  const windowMs = policy.lockMinutes * 60_000;
  const fresh = !state || now.getTime() - state.first_failure_at.getTime() > windowMs || (state.locked_until !== null && state.locked_until <= now);
  const failures = fresh ? 1 : state.failures + 1;
  return {
    failures,
    first_failure_at: fresh ? now : state.first_failure_at,
    locked_until: failures >= policy.lockAfter ? new Date(now.getTime() + windowMs) : null,
  };
}

/** How long to hold a failed answer back. */
export function failureDelayMs(failures: number, policy: ThrottlePolicy): number {
  if (failures <= policy.slowAfter) return 0;
  return policy.slowMs * Math.min(8, 2 ** (failures - policy.slowAfter - 1));
}
