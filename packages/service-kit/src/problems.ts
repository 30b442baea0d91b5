// The one catalogue of errors a client can see. Each problem has a stable code whose integer part is the HTTP
// status (ODK Central's lib/util/problem.js is the model) and the spec's message text where the spec names one.
// Pure: no I/O, safe to import from domain code. Every entry is documented in docs/errors.md.

/** Per-field messages, as in `{"email": ["Enter a valid email address."]}`. */
export type FieldErrors = Record<string, string[]>;

/**
 * How much detail one problem carries, whatever made it: a request with thousands of bad values gets the first
 * ones, not thousands of messages (they travel in one gRPC message and one HTTP body; see grpc-status.ts).
 */
export const PROBLEM_LIMITS = {
  /** Fields with messages; past it, one non_field_errors line says how many more were not shown. */
  fields: 50,
  /** Messages per field. */
  messagesPerField: 3,
  /** Characters of a field name and of a message. */
  fieldChars: 200,
  messageChars: 500,
  /** UTF-8 bytes of the whole field detail as JSON. */
  bytes: 16 * 1024,
} as const;

/** The message that closes a cut list of field errors. */
export const moreErrorsMessage = (n: number) => `${n} more error${n === 1 ? '' : 's'} not shown: correct these first.`;

const utf8 = new TextEncoder();
const CLOSING = /^\d+ more errors? not shown: /;
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Field errors within PROBLEM_LIMITS: non_field_errors, then the first fields in order, with a closing line when
 * some were left out. Bounding what is bounded changes nothing.
 */
export function boundFields(fields: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  const messages = (v: unknown) =>
    (Array.isArray(v) ? v : [v])
      .slice(0, PROBLEM_LIMITS.messagesPerField)
      .map((m) => cut(String(m), PROBLEM_LIMITS.messageChars));
  const general = fields.non_field_errors === undefined ? [] : messages(fields.non_field_errors);
  const entries = Object.entries(fields).filter(([k]) => k !== 'non_field_errors');
  let bytes = utf8.encode(JSON.stringify({ non_field_errors: [...general, moreErrorsMessage(entries.length)] })).length;
  let kept = 0;
  for (const [field, list] of entries) {
    if (kept >= PROBLEM_LIMITS.fields) break;
    const key = cut(field, PROBLEM_LIMITS.fieldChars);
    const value = messages(list);
    const size = utf8.encode(JSON.stringify({ [key]: value })).length;
    if (bytes + size > PROBLEM_LIMITS.bytes) break;
    out[key] = value;
    bytes += size;
    kept++;
  }
  const left = entries.length - kept;
  if (left === 0) return general.length > 0 ? { non_field_errors: general, ...out } : out;
  return { non_field_errors: [...general.filter((m) => !CLOSING.test(m)), moreErrorsMessage(left)], ...out };
}

/** An error meant for the client: a stable code, a message and, for validation, per-field messages (bounded). */
export class Problem extends Error {
  readonly fields?: FieldErrors;

  constructor(
    readonly code: string,
    message: string,
    fields?: FieldErrors,
    options?: { cause?: unknown },
  ) {
    super(cut(message, PROBLEM_LIMITS.messageChars * 2), options);
    this.name = 'Problem';
    if (fields !== undefined) this.fields = boundFields(fields);
  }

  /** The HTTP status: the integer part of the code. */
  get status(): number {
    return Number.parseInt(this.code, 10);
  }
}

/** Bytes as the messages say them: "10 MB" (MiB, as the limits are set), one decimal when not whole. */
export const megabytes = (n: number) => `${(n / 1024 ** 2).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

const problem =
  <A extends unknown[]>(code: string, message: (...args: A) => string) =>
  (...args: A): Problem =>
    new Problem(code, message(...args));

/** Every problem of the product. */
export const problems = {
  // 400: the request is wrong.
  /** Validation failed on one or more fields. */
  invalidFields: (fields: FieldErrors) => new Problem('400.1', 'Invalid input.', fields),
  /** A request-wide validation failure; answered as non_field_errors. */
  invalid: problem('400.2', (message: string) => message),
  loginFailed: problem('400.3', () => 'Unable to log in with provided credentials.'),
  noWorkspace: problem('400.4', () => 'User is not a member of any workspace, cannot continue.'),
  missingCredentials: problem(
    '400.5',
    () => 'Missing credentials! Please use the forgot password link on Login to change password.',
  ),
  resetLinkInvalid: problem('400.6', () => 'This password reset link is invalid or has expired.'),
  userAlreadyMember: problem('400.7', () => 'User is already a member of this workspace.'),
  userCreateFailed: problem('400.8', () => 'There was an error creating this user.'),
  noWorkspacesFound: problem('400.9', () => 'No workspaces found!'),
  geotagRequired: problem('400.10', () => 'Geotag is required'),
  linkExpired: problem('400.11', () => 'This link has expired.'),
  /** A form file whose conversion ran past its time budget: its worker was stopped, the form is unchanged. */
  conversionTimedOut: problem(
    '400.12',
    (seconds: number) =>
      `This form took too long to convert (more than ${seconds} ${seconds === 1 ? 'second' : 'seconds'}) and was stopped; the project's form is unchanged. Split the file or remove rows, then try again.`,
  ),
  /** A form file whose conversion needed more memory than a conversion worker has. */
  conversionOutOfMemory: problem(
    '400.13',
    () =>
      "This form needs more memory to convert than a conversion may use, and was stopped; the project's form is unchanged. Split the file or remove rows, then try again.",
  ),
  /** A form file the converter failed on in a way it does not explain (logged with the request id). */
  conversionFailed: problem(
    '400.14',
    () => "This file could not be converted into a form; the project's form is unchanged.",
  ),
  /** A public shared item asked for a view (filters, comparison, ...) other than the one it was shared with. */
  sharedViewOnly: problem(
    '400.15',
    (fields: string) =>
      `A shared item answers only with the view it was shared with; these cannot be changed: ${fields}.`,
  ),
  /** Sharing an item with a view too large to travel in its link. */
  sharedViewTooLarge: problem(
    '400.16',
    (max: number) =>
      `This view is too large to share (more than ${max} characters of filters and options): remove some filters.`,
  ),

  // 401: who are you?
  notAuthenticated: problem('401.1', () => 'Authentication credentials were not provided.'),
  tokenInvalid: problem('401.2', () => 'Token is invalid or expired'),
  userInactive: problem('401.3', () => 'User account is disabled.'),

  // 403: you may not.
  forbidden: problem('403.1', () => "You don't have access to this item."),
  linkQuota: problem(
    '403.10',
    (what: 'responses' | 'files' | 'files waiting to be uploaded') => `This link has reached its limit of ${what}.`,
  ),
  /** A workspace administrator changing an account-wide attribute (the name) of an account other workspaces share. */
  accountShared: problem(
    '403.2',
    () => 'This account also belongs to other workspaces: only its owner can change its name.',
  ),
  /** An API key on a route that is not a data route of its workspace (account, session, workspace administration). */
  apiKeyNotAllowed: problem('403.3', () => 'API keys cannot be used for this call.'),
  /**
   * Giving someone a role or read_sites above the giver's own (issue 30 item 4): nobody makes a principal with more
   * access than they have. `what` names what was refused.
   */
  grantBeyondOwn: problem('403.20', (what: string) => `You can only give access you have yourself: ${what}.`),
  /** A screen the caller's role opens, closed because a workspace feature is off: which one, and who turns it on. */
  featureOff: problem(
    '403.19',
    (feature: string, organizationId: number) =>
      `This needs the workspace feature "${feature}", which is off in this workspace. Workspace roles cannot turn it on: ask the operator of this Fieldwork deployment, who runs: pnpm fieldwork workspace features --id ${organizationId} --enable ${feature}`,
  ),

  // 404: no such thing (or not yours to see).
  notFound: problem('404.1', () => 'Not found.'),
  invalidOrganizationId: problem('404.2', () => 'Invalid Organization Id!'),
  invalidWorkspaceOrUserId: problem('404.3', () => 'Invalid Workspace or User Id!'),
  invalidProjectId: problem('404.4', () => 'Invalid Project Id!'),
  invalidUserId: problem('404.5', () => 'Invalid Project or User Id!'),
  invalidSiteId: problem('404.6', () => 'Invalid Project or Site Id!'),
  invalidGroupId: problem('404.7', () => 'Invalid Project or Group Id!'),
  invalidTeamId: problem('404.8', () => 'Invalid Project or Team Id!'),
  invalidSchemaId: problem('404.9', () => 'Invalid Schema Id!'),
  invalidSurveyId: problem('404.10', () => 'Not found.'),
  noInvitation: problem('404.11', () => 'No pending invitation to this workspace.'),

  // 409: conflicts with what is there.
  alreadyExists: problem('409.1', (what: string) => `${what} already exists.`),
  /**
   * Replacing a form that has responses without `confirm`; the fields list the questions it changes by code name:
   * ["added", type], ["removed", type] or ["retyped", from, to].
   */
  replaceNeedsConfirm: (responses: number, changes: FieldErrors) => {
    const n = Object.keys(changes).length;
    return new Problem(
      '409.2',
      `This form has ${responses} ${responses === 1 ? 'response' : 'responses'}: replacing it changes ${n} ${n === 1 ? 'question' : 'questions'}. Send confirm to replace it; the current form is kept as a version you can restore.`,
      changes,
    );
  },
  /**
   * A form file with fewer levels (XLSForm repeats) than the project's hierarchy, whose dropped levels have
   * responses: the levels, the forms and the responses stay as they are.
   */
  levelsHaveResponses: problem(
    '409.3',
    (levels: string) =>
      `This form has fewer levels than the project: importing it would remove ${levels}, which already ${levels.includes(', ') ? 'have' : 'has'} responses. You can't delete levels that already have responses; the project's forms are unchanged.`,
  ),

  // 413, 429: limits.
  payloadTooLarge: problem('413.1', () => 'Request body is too large.'),
  /** An uploaded file over the limit of what it is for (`what`: "Files", "Form files"), named in the message. */
  fileTooLarge: problem(
    '413.2',
    (what: string, limitBytes: number) => `${what} are limited to ${megabytes(limitBytes)}: this one is larger.`,
  ),
  tooManyLoginAttempts: problem(
    '429.1',
    (seconds: number) => `Too many failed login attempts. Please try again in ${seconds} seconds.`,
  ),
  rateLimited: problem('429.2', () => 'Too many requests. Please slow down.'),
  /** A workspace holds its share of the form conversions while others convert too; answered with Retry-After. */
  workspaceConversionsBusy: problem(
    '429.3',
    () => 'This workspace is converting too many forms at once. Please try again when one of them has finished.',
  ),

  // 5xx: ours.
  internal: problem('500.1', () => 'Internal server error.'),
  unavailable: problem('503.1', () => 'A service is unavailable. Please try again shortly.'),
  /** Every conversion worker is busy and the queue is full; answered with Retry-After. */
  conversionsBusy: problem(
    '503.2',
    () => 'Too many forms are being converted right now. Please try again in a few seconds.',
  ),
  timeout: problem('504.1', () => 'The request took too long. Please try again.'),
} as const;

/** True for errors to show to clients; anything else is a bug or an outage and becomes a 500. */
export function isProblem(err: unknown): err is Problem {
  return err instanceof Problem;
}
