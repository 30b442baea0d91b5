// Collection links (surveys): when a link still lets respondents in. Pure.

/** What decides whether a link works. */
export interface LinkFacts {
  expiry_date: Date;
  revoked_at: Date | null;
}

/** Projects whose links have ended: finalized (collection is over) and deleted. */
export const CLOSED_STATES: readonly string[] = ['F', 'D'];

/**
 * A link has expired once its expiry date has passed, once it has been revoked, and once its project is finalized or
 * deleted; it then answers the spec's "This link has expired." everywhere, uploads included.
 */
export function linkExpired(link: LinkFacts, projectState: string, now = Date.now()): boolean {
  return link.expiry_date.getTime() <= now || link.revoked_at !== null || CLOSED_STATES.includes(projectState);
}
