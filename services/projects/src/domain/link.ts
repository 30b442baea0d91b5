// Collection links (surveys): when a link still lets respondents in, and the settings a new link may have. Pure.

/** What decides whether a link works. */
export interface LinkFacts {
  /** null: an anonymous link that never expires. */
  expiry_date: Date | null;
  revoked_at: Date | null;
}

/** Projects whose links have ended: finalized (collection is over) and deleted. */
export const CLOSED_STATES: readonly string[] = ['F', 'D'];

/**
 * A link has expired once its expiry date has passed, once it has been revoked, and once its project is finalized or
 * deleted; it then answers the spec's "This link has expired." everywhere, uploads included.
 */
export function linkExpired(link: LinkFacts, projectState: string, now = Date.now()): boolean {
  return (
    (link.expiry_date !== null && link.expiry_date.getTime() <= now) ||
    link.revoked_at !== null ||
    CLOSED_STATES.includes(projectState)
  );
}

/**
 * The two kinds of link of spec 000 §2: anonymous (collect/anonymous/{token}, optionally with the respondent's
 * email; it may never expire) and survey (collect/survey/{token}; it always has an expiry date, spec 000 §3 Survey).
 */
export const LINK_KINDS = ['anonymous', 'survey'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export const LINK_NAME_MAX = 100;

export const LINK_FIELD_MESSAGES = {
  kind: 'Choose anonymous or survey.',
  expiryRequired: 'A survey link needs an expiry date.',
  expiryInvalid: 'Enter a valid date and time.',
  expiryPast: 'The expiry date must be in the future.',
  nameLong: `Ensure this field has no more than ${LINK_NAME_MAX} characters.`,
} as const;

export interface NewLink {
  kind: LinkKind;
  name: string;
  expiry_date: Date | null;
}

/**
 * Reads a new link's settings: kind ('' is survey, as the spec's call {expiry_date} makes), name and expiry date
 * ('' is none, allowed for anonymous links only). Answers the settings, or the field errors to refuse them with.
 */
export function readNewLink(
  input: { kind: string; name: string; expiry_date: string },
  now = Date.now(),
): { link: NewLink } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const kind = (input.kind.trim() || 'survey') as LinkKind;
  if (!LINK_KINDS.includes(kind)) errors.kind = [LINK_FIELD_MESSAGES.kind];
  const name = input.name.trim();
  if (name.length > LINK_NAME_MAX) errors.name = [LINK_FIELD_MESSAGES.nameLong];
  const raw = input.expiry_date.trim();
  let expiry: Date | null = null;
  if (raw === '') {
    if (kind === 'survey') errors.expiry_date = [LINK_FIELD_MESSAGES.expiryRequired];
  } else {
    expiry = new Date(raw);
    if (Number.isNaN(expiry.getTime())) errors.expiry_date = [LINK_FIELD_MESSAGES.expiryInvalid];
    else if (expiry.getTime() <= now) errors.expiry_date = [LINK_FIELD_MESSAGES.expiryPast];
  }
  return Object.keys(errors).length > 0 ? { errors } : { link: { kind, name, expiry_date: expiry } };
}
