// What a refresh token presented again means (issue 30 item 3). A refresh token is used once: its use issues the
// session's next token (its successor). The same token presented again is either a client whose answer was lost on the
// way (a phone whose network dropped mid-refresh still holds the spent token) or a copy in someone else's hands. The
// two cannot be told apart by the token, so the answer never gives the replayer anything the first user did not get:
// - within a few seconds of the use, while the successor has not been used, the replay gets that same successor
//   (idempotent: no second branch of the session exists, so a thief gains no session of its own);
// - any other replay (later, or after the successor was used: two clients are rotating one session) ends the whole
//   session, both holders included; the owner signs in again, the thief is out.
// Pure: the session service applies it to the token's row under a lock.

export interface SpentState {
  /** When the token was used (null: never). */
  used_at: Date | null;
  /** The hash of the token its use issued (null: none recorded). */
  replaced_by: Buffer | null;
  /** When that successor was used (null: never). */
  successor_used_at: Date | null;
}

export type RefreshDecision = 'rotate' | 'resend' | 'revoke';

/**
 * `rotate`: a first use, issue the successor; `resend`: a replay within the lost-answer window, answer the successor
 * already issued; `revoke`: a replay outside it, end the session. `successorHash` is the hash of the successor this
 * token derives (the successor is derived, so it can be answered again without being stored).
 */
export function refreshDecision(token: SpentState, successorHash: Buffer, now: Date, graceMs: number): RefreshDecision {
  if (token.used_at === null) return 'rotate';
  const within = now.getTime() - token.used_at.getTime() <= graceMs;
  const same = token.replaced_by !== null && token.replaced_by.equals(successorHash);
  return within && same && token.successor_used_at === null ? 'resend' : 'revoke';
}
