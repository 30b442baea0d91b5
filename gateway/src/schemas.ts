// JSON schemas of the wire objects: request validation and the OpenAPI document come from the same source.
import type { auth, projects } from '@fieldwork/proto';
import { projectJson } from './wire.js';

const str = { type: 'string' } as const;
const strMax = (n: number) => ({ type: 'string', maxLength: n }) as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const nullableStr = { type: ['string', 'null'] } as const;

/** The largest value of an int32 proto field (and of a PostgreSQL integer). */
export const INT32_MAX = 2_147_483_647;
/**
 * An integer of a request bounded to what the field that carries it holds (an int32 proto field, an SQL integer) or
 * tighter: a bigger one is refused with 400 ("Ensure this value is less than or equal to …") instead of wrapping
 * around on the way to a service. Every integer a route reads into an int32 field is declared with this.
 */
export const boundedInt = (minimum: number, maximum: number = INT32_MAX) =>
  ({ type: 'integer', minimum, maximum }) as const;
/** The same, null allowed (read as absent). */
export const optBoundedInt = (minimum: number, maximum: number = INT32_MAX) =>
  ({ type: ['integer', 'null'], minimum, maximum }) as const;

export const userSchema = {
  $id: 'User',
  type: 'object',
  properties: {
    id: int,
    name: str,
    first_name: str,
    last_name: str,
    username: str,
    email: str,
    groups: { type: 'array', items: str },
    is_staff: bool,
    is_superuser: bool,
    is_mobilemanager: bool,
    last_login: nullableStr,
    time_created: str,
    organizations: { type: 'array', items: { type: 'object', properties: { id: int, name: str } } },
    current_organization: { type: ['integer', 'null'] },
    settings: {
      type: 'object',
      properties: {
        agreed_terms: str,
        agreed_privacy: str,
        account_activation_date: nullableStr,
        lifetime_datapoints: int,
        lifetime_hours: int,
      },
    },
  },
} as const;

export const organizationUserSchema = {
  $id: 'OrganizationUser',
  type: 'object',
  properties: {
    id: int,
    user: int,
    name: str,
    email: str,
    username: str,
    first_name: str,
    last_name: str,
    owner: bool,
    user_admin: bool,
    project_admin: bool,
    billing_admin: bool,
    organization: int,
    is_active: bool,
    orguser_id: int,
    /** An existing account was invited and has not accepted yet. */
    invited: bool,
  },
} as const;

export const geotagSchema = {
  type: ['object', 'null'],
  properties: { type: { type: 'string', enum: ['Point'] }, coordinates: { type: 'array', items: { type: 'number' } } },
} as const;

export const projectSummarySchema = {
  $id: 'ProjectSummary',
  type: 'object',
  additionalProperties: true,
  properties: {
    id: int,
    name: str,
    description: str,
    project_state: str,
    project_type: str,
    frontend_color: str,
    frontend_icon: str,
    geotag: geotagSchema,
    folder_id: { type: ['integer', 'null'] },
    primary_organization: int,
    total_responses: int,
    last_response: nullableStr,
    time_created: str,
    time_updated: str,
  },
} as const;

export const organizationSchema = {
  $id: 'Organization',
  type: 'object',
  properties: {
    id: int,
    name: str,
    description: str,
    address: str,
    flagged_features: { type: 'array', items: str },
    organizationuser_set: { type: 'array', items: { $ref: 'OrganizationUser#' } },
    projects: { type: 'array', items: int },
    project_details: { type: 'array', items: { $ref: 'ProjectSummary#' } },
    time_created: str,
    // What the caller may do in this workspace (spec 000 §6 workspace permissions), for the screens to offer only that.
    permissions: { type: 'array', items: str },
  },
} as const;

export const detailSchema = { type: 'object', properties: { detail: str } } as const;

export const sharedSchemas = [userSchema, organizationUserSchema, projectSummarySchema, organizationSchema];

export const bodies = {
  login: {
    type: 'object',
    required: ['username', 'password'],
    properties: {
      username: strMax(254),
      password: strMax(256),
      device: {
        ...strMax(200),
        description: 'The device token an earlier sign-in to this account answered (docs/security.md: known devices)',
      },
    },
  },
  refresh: { type: 'object', required: ['refresh'], properties: { refresh: strMax(200) } },
  logout: { type: ['object', 'null'], properties: { refresh: strMax(200) } },
  userPatch: { type: 'object', properties: { first_name: strMax(150), last_name: strMax(150) } },
  settings: { type: 'object', properties: { agreed_terms: strMax(20), agreed_privacy: strMax(20) } },
  reset: {
    type: 'object',
    properties: {
      nonce: strMax(200),
      password: strMax(256),
      new_password: strMax(256),
      old_password: strMax(256),
      firebase_token: strMax(4096),
      firebase_id: strMax(256),
    },
  },
  emailCheck: { type: 'object', required: ['email'], properties: { email: strMax(254) } },
  requestInvite: {
    type: 'object',
    required: ['email'],
    properties: { email: strMax(254), name: strMax(200), organization: strMax(200) },
  },
  organizationMatch: {
    type: 'object',
    required: ['org_email'],
    properties: { org_email: strMax(254), org_details: strMax(2000) },
  },
  organization: {
    type: 'object',
    required: ['name'],
    properties: {
      name: strMax(255),
      description: strMax(5000),
      address: strMax(1000),
      // Staff and superusers only (spec 000 §6); null or absent: unchanged.
      flagged_features: { type: ['array', 'null'], maxItems: 20, items: strMax(40) },
    },
  },
  organizationUser: {
    type: 'object',
    required: ['email', 'organization'],
    properties: {
      email: strMax(254),
      first_name: strMax(150),
      last_name: strMax(150),
      password: strMax(256),
      organization: { type: 'integer', minimum: 1 },
      owner: bool,
      user_admin: bool,
      project_admin: bool,
      billing_admin: bool,
    },
  },
  errorReport: {
    type: 'object',
    properties: {
      hashId: strMax(100),
      message: strMax(2000),
      stack: strMax(20000),
      user: { type: ['string', 'integer', 'null', 'object'] },
      userAgent: strMax(1000),
      location: strMax(2000),
      severity: strMax(20),
    },
  },
} as const;

/** The answer to an error report: the reference it was logged under. */
export const errorReportReply = { type: 'object', properties: { reference: str } } as const;

// Proto messages to wire objects.

export function userJson(u: auth.User) {
  return {
    ...u,
    last_login: u.last_login === '' ? null : u.last_login,
    current_organization: u.current_organization === 0 ? null : u.current_organization,
    settings: u.settings
      ? { ...u.settings, account_activation_date: u.settings.account_activation_date || null }
      : {
          agreed_terms: '',
          agreed_privacy: '',
          account_activation_date: null,
          lifetime_datapoints: 0,
          lifetime_hours: 0,
        },
  };
}

export function organizationJson(o: auth.Organization, projectList?: projects.Project[]) {
  return {
    ...o,
    ...(projectList ? { projects: projectList.map((p) => p.id), project_details: projectList.map(projectJson) } : {}),
  };
}
