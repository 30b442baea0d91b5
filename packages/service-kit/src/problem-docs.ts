// What docs/errors.md says of each problem of the catalogue (problems.ts): when a client meets it, and how its message
// reads where the message takes values. Keyed by the problem's name, so that a problem without its entry, or an entry
// of a problem that no longer exists, fails to compile. `pnpm run gen:errors` writes the table of docs/errors.md
// from the catalogue and these entries; `--check` (run by the unit tests) fails when the committed file differs.
import type { problems } from './problems.js';

export interface ProblemDoc {
  /** The message as documented, where the catalogue's needs values (default: the problem made with no values). */
  message?: string;
  when: string;
}

export const PROBLEM_DOCS: Record<keyof typeof problems, ProblemDoc> = {
  invalidFields: {
    message: '`Invalid input.` (the body carries the field errors)',
    when: 'a request field is missing, blank, of the wrong type or refused by a rule',
  },
  invalid: {
    message: 'the given message',
    when: 'a request-wide validation failure; among them, from the gateway for any route: `Send the request body as a JSON object.` (a JSON string, number or list), `Text may not contain the NUL character.` (U+0000 in a path, query or body string), `Unsupported content type: send JSON.` (text and other types where JSON is read), `The JSON body nests more than 64 levels of objects and lists.`',
  },
  loginFailed: { when: 'wrong username or password, inactive user' },
  noWorkspace: { when: 'login of a user without a workspace' },
  missingCredentials: { when: 'change password without the old password (or an identity id)' },
  resetLinkInvalid: { when: 'a used, expired or foreign reset/set-password nonce' },
  userAlreadyMember: { when: 'creating a workspace user who is one' },
  userCreateFailed: { when: 'reserved for user creation failures' },
  noWorkspacesFound: { when: 'reserved' },
  geotagRequired: { when: 'creating a project without a valid geotag' },
  linkExpired: {
    when: 'a collection link (anonymous or survey) past its expiry date, revoked, or of a finalized or deleted project: opening it, loading its form, and every upload or media request with a token it gave',
  },
  conversionTimedOut: {
    message:
      "`This form took too long to convert (more than N seconds) and was stopped; the project's form is unchanged. Split the file or remove rows, then try again.`",
    when: 'a form file (`create-form-from-upload`) whose conversion passed `FORMS_CONVERT_TIMEOUT_MS`: its worker thread was terminated',
  },
  conversionOutOfMemory: { when: "a form file whose conversion passed the worker's heap, `FORMS_CONVERT_HEAP_MB`" },
  conversionFailed: {
    when: 'the converter failed on a form file in a way it does not explain (logged with the request id, as a bug to fix)',
  },
  sharedViewOnly: {
    message: '`A shared item answers only with the view it was shared with; these cannot be changed: <fields>.`',
    when: '`POST item-results/{token}/` (no login) sending filters, comparisons, buckets, timing_column or time_zone other than those the item was shared with (leaving them out, or empty, answers the shared view)',
  },
  sharedViewTooLarge: {
    message:
      '`This view is too large to share (more than 500 characters of filters and options): remove some filters.`',
    when: 'sharing an item (`POST .../item/{itemId}/token/`) with a view that would not fit in its link',
  },
  notAuthenticated: { when: 'no `Authorization: JWT <token>` header' },
  tokenInvalid: { when: 'bad, expired access token; unknown, used, revoked or expired refresh token' },
  userInactive: { when: 'reserved' },
  forbidden: { when: 'the caller lacks the permission' },
  linkQuota: {
    message: '`This link has reached its limit of responses.` / `... of files.`',
    when: "a collection link's `LINK_MAX_RESPONSES` or `LINK_MAX_MEDIA_BYTES` is used up",
  },
  accountShared: {
    when: 'a workspace administrator renaming (PATCH `organization/{id}/organization-users/{userId}/`, PUT `project/{id}/users/{userId}/`) an account that is also an active member of another workspace',
  },
  apiKeyNotAllowed: {
    when: 'an API key on a call that is not a data route of its workspace (accounts, sessions, workspaces, workspace users, API keys, integrations, the audit log, project users, share links)',
  },
  grantBeyondOwn: {
    message: 'You can only give access you have yourself: {what}.',
    when: 'adding or editing a project user (POST `api/v1/project-user/`, PUT `project/{id}/users/{userId}/`, POST `project-users/permissions/`) with a role whose screens the caller does not have, or read_sites whose results the caller does not read',
  },
  featureOff: {
    when: "a route whose screen the caller's roles open but a workspace feature that is off closes (import, import preview and SQL access while `ingestion` is off), decided at the gateway",
  },
  notFound: { when: 'unknown path or resource' },
  invalidOrganizationId: { when: 'unknown workspace, or one the caller is not a member of' },
  invalidWorkspaceOrUserId: { when: 'reserved for workspace users' },
  invalidProjectId: { when: 'a project the caller cannot see; an upload or file to a deleted project' },
  invalidUserId: { when: 'reserved for project users' },
  invalidSiteId: { when: "a site that is not the project's" },
  invalidGroupId: { when: "a group that is not the project's" },
  invalidTeamId: { when: "a team that is not the project's" },
  invalidSchemaId: { when: 'a sampler schema that does not exist or is of a project the caller cannot see' },
  invalidSurveyId: { when: 'a survey (collection link) that does not exist' },
  noInvitation: { when: 'accepting or declining an invitation that is not there (never sent, answered, or withdrawn)' },
  alreadyExists: { message: '`<thing> already exists.`', when: 'operator CLI: a user or workspace exists' },
  replaceNeedsConfirm: {
    message:
      '`This form has N responses: replacing it changes M questions. Send confirm to replace it; the current form is kept as a version you can restore.`',
    when: '`create-form-from-upload` over a form that has responses, without `"confirm": true`; the body also holds `changes`, one entry per question code: `["added", type]`, `["removed", type]` or `["retyped", from, to]` (bounded like field errors); the form is unchanged',
  },
  levelsHaveResponses: {
    message:
      '`This form has fewer levels than the project: importing it would remove the level "<name>" (level N of the hierarchy, the first being 1), which already has responses. You can\'t delete levels that already have responses; the project\'s forms are unchanged.`',
    when: "`create-form-from-upload` of an XLSForm whose repeats make fewer levels than the project's hierarchy has, when a level it would remove has responses; nothing is changed",
  },
  payloadTooLarge: { when: 'body over `BODY_LIMIT_BYTES` (1 MiB)' },
  fileTooLarge: {
    message: '`<Files> are limited to N MB: this one is larger.`',
    when: 'a file over the limit of what it is for: `Files ... 50 MB` at `project/{id}/upload/`; `Form files ... 10 MB` (`FORMS_MAX_FILE_BYTES`) at `create-form-from-upload`, refused before a byte of it is read',
  },
  tooManyLoginAttempts: {
    message: '`Too many failed login attempts. Please try again in N seconds.`',
    when: 'a login attempt before the delay its account (all login names together) or its client address has earned is over; the attempt is not counted and the password not checked',
  },
  rateLimited: {
    when: 'a client address over a per-minute limit of the gateway (`RATE_LIMIT_*`: login and refresh, email check and workspace match, mails, error reports); with `Retry-After`',
  },
  workspaceConversionsBusy: {
    when: "`create-form-from-upload` while other workspaces convert too and the caller's workspace already holds its share of the forms service's conversions (`FORMS_CONVERT_WORKSPACE_WORKERS` running, the queue shared fairly): a new conversion, or the newest waiting one when a workspace holding less arrives; with `Retry-After`",
  },
  internal: { when: 'anything unexpected' },
  unavailable: { when: 'a service cannot be reached' },
  conversionsBusy: {
    when: 'every conversion worker of the forms service is busy and its queue is full (`FORMS_CONVERT_WORKERS`, `FORMS_CONVERT_QUEUE`); with `Retry-After`',
  },
  timeout: { when: 'a service call passed its deadline' },
};

export const TABLE_START = '<!-- problems: generated from packages/service-kit (pnpm run gen:errors); do not edit -->';
export const TABLE_END = '<!-- end of problems -->';

const order = (code: string) => code.split('.').map(Number) as [number, number];

/** The table of every problem: code, message, when; by status, then number. */
export function problemsTable(
  catalogue: Record<string, (...args: never[]) => { code: string; message: string }>,
  docs: Record<string, ProblemDoc>,
): string {
  const rows = Object.entries(catalogue).map(([name, make]) => {
    const doc = docs[name];
    if (!doc) throw new Error(`problem ${name} has no entry in PROBLEM_DOCS`);
    const made = (make as (...args: string[]) => { code: string; message: string })('<value>', '<value>', '<value>');
    const message = doc.message ?? `\`${made.message}\``;
    return { code: made.code, line: `| ${made.code} | ${message} | ${doc.when} |` };
  });
  rows.sort((a, b) => {
    const [x1, x2] = order(a.code);
    const [y1, y2] = order(b.code);
    return x1 - y1 || x2 - y2;
  });
  return ['| code | message | when |', '|---|---|---|', ...rows.map((r) => r.line)].join('\n');
}

/** docs/errors.md with its table between the markers replaced by `table`. */
export function withProblemsTable(markdown: string, table: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/errors.md has lost its markers ${TABLE_START} ... ${TABLE_END}`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${markdown.slice(end)}`;
}
