// API keys (shown once, stored hashed, looked up by prefix) and integrations (created, projects attached, verified
// against the CRM: verified only on HTTP 200 with status "Success").
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { canInWorkspace, type WorkspacePermission } from '@fieldwork/access';
import type { auth, common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { MESSAGES } from '../domain/accounts.js';
import { CredentialStore, type ApiKeyRow, type IntegrationRow } from '../store/credential.store.js';
import { OrganizationStore } from '../store/organization.store.js';
import { UserStore } from '../store/user.store.js';
import { callerOf, isApiKey } from './caller.js';
import { sha256 } from './crypto.js';
import type { AuthDeps } from './deps.js';
import { visibleWorkspace } from './workspace-access.js';

/** Keys look like fwk_<8 hex prefix>_<43 url-safe secret characters>. */
const KEY_PATTERN = /^fwk_([0-9a-f]{8})_([\w-]{43})$/;
export const INTEGRATION_TYPES = ['crm'] as const;

const iso = (d: Date | null) => d?.toISOString() ?? '';
const toApiKey = (r: ApiKeyRow): auth.ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  created: iso(r.created_at),
  revoked: iso(r.revoked_at),
  last_used: iso(r.last_used_at),
  created_by: r.created_by,
});
const toIntegration = (r: IntegrationRow): auth.Integration => ({
  id: r.id,
  token: r.token,
  integration_type: r.integration_type,
  verified: r.verified,
  projects: r.projects,
  organization: r.organization_id,
  time_created: iso(r.time_created),
});

export interface CrmVerifier {
  /** Asks the CRM whether `token` is good: true only on HTTP 200 with {"status": "Success"}. */
  verify(token: string): Promise<boolean>;
}

/** The CRM verification over HTTP: POST {token} to `url`. */
export function httpCrmVerifier(url: string, timeoutMs = 10_000): CrmVerifier | undefined {
  if (url === '') return undefined;
  return {
    verify: async (token) => {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ token }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (res.status !== 200) return false;
        const body = (await res.json()) as { status?: unknown };
        return body.status === 'Success';
      } catch {
        return false;
      }
    },
  };
}

/** The projects of a workspace, for checking the projects attached to an integration. */
export type ProjectIdsOf = (caller: common.Caller, organizationId: number) => Promise<Set<number>>;

export class CredentialService {
  private readonly orgs: OrganizationStore;
  private readonly store: CredentialStore;
  private readonly users: UserStore;

  constructor(
    private readonly deps: AuthDeps,
    private readonly crm: CrmVerifier | undefined,
    private readonly projectIdsOf: ProjectIdsOf,
  ) {
    this.orgs = new OrganizationStore(deps.sql);
    this.store = new CredentialStore(deps.sql);
    this.users = new UserStore(deps.sql);
  }

  // API keys: the workspace owner's business.

  async listApiKeys(req: auth.OrganizationRequest): Promise<auth.ApiKeyList> {
    const { org } = await this.allowed(req.caller, req.organization_id, 'org_details');
    return { results: (await this.store.apiKeys(org.id)).map(toApiKey) };
  }

  async createApiKey(req: auth.CreateApiKeyRequest): Promise<auth.ApiKeyCreated> {
    const { org, caller } = await this.allowed(req.caller, req.organization_id, 'org_details');
    // A key never mints keys (the gateway refuses it first): what a leaked key made would outlive its revocation.
    if (isApiKey(caller)) throw problems.apiKeyNotAllowed();
    const name = req.name.trim();
    if (name === '') throw problems.invalidFields({ name: [MESSAGES.blank] });
    if (name.length > 100)
      throw problems.invalidFields({ name: ['Ensure this field has no more than 100 characters.'] });
    const prefix = randomBytes(4).toString('hex');
    const key = `fwk_${prefix}_${randomBytes(32).toString('base64url')}`;
    const row = await this.store.addApiKey({
      organization_id: org.id,
      name,
      prefix,
      key_hash: sha256(key),
      created_by: caller.user_id,
    });
    this.deps.log.info({ organizationId: org.id, prefix, by: caller.user_id }, 'api key created');
    await this.deps.audit.record({
      organization_id: org.id,
      actor_user_id: caller.user_id,
      event: 'api_key_created',
      target: prefix,
      details: { name },
    });
    return { api_key: toApiKey(row), key };
  }

  async revokeApiKey(req: auth.RevokeApiKeyRequest): Promise<auth.ApiKey> {
    const { org, caller } = await this.allowed(req.caller, req.organization_id, 'org_details');
    const row = /^[0-9a-f]{8}$/.test(req.prefix) ? await this.store.revokeApiKey(org.id, req.prefix) : undefined;
    if (!row) throw problems.invalidFields({ prefix: ['No API key of this workspace has this prefix.'] });
    this.deps.log.info({ organizationId: org.id, prefix: row.prefix, by: caller.user_id }, 'api key revoked');
    await this.deps.audit.record({
      organization_id: org.id,
      actor_user_id: caller.user_id,
      event: 'api_key_revoked',
      target: row.prefix,
    });
    return toApiKey(row);
  }

  async authenticateApiKey(req: auth.AuthenticateApiKeyRequest): Promise<auth.ApiKeyIdentity> {
    const match = KEY_PATTERN.exec(req.key.trim());
    const row = match ? await this.store.apiKeyByPrefix(match[1]!) : undefined;
    const given = sha256(req.key.trim());
    if (!row || row.revoked_at !== null || !timingSafeEqual(row.key_hash, given)) throw problems.tokenInvalid();
    const user = await this.users.byId(row.created_by);
    if (!user || !user.is_active) throw problems.tokenInvalid();
    await this.store.touchApiKey(row.id);
    return {
      user_id: user.id,
      organization_id: row.organization_id,
      is_staff: user.is_staff,
      is_superuser: user.is_superuser,
      prefix: row.prefix,
    };
  }

  // Integrations: whoever manages the workspace's projects.

  async listIntegrations(req: auth.OrganizationRequest): Promise<auth.IntegrationList> {
    const { org, caller } = await this.allowed(req.caller, req.organization_id, 'projects');
    const rows = await this.store.integrations(org.id);
    if (rows.every((r) => r.projects.length === 0)) return { results: rows.map(toIntegration) };
    // A deleted (or purged) project is in no list: attached projects are shown only while the workspace has them.
    const live = await this.projectIdsOf(caller, org.id);
    return {
      results: rows.map((r) => toIntegration({ ...r, projects: r.projects.filter((id) => live.has(Number(id))) })),
    };
  }

  async createIntegration(req: auth.CreateIntegrationRequest): Promise<auth.Integration> {
    const { org } = await this.allowed(req.caller, req.organization_id, 'projects');
    if (!(INTEGRATION_TYPES as readonly string[]).includes(req.integration_type)) {
      throw problems.invalidFields({ integration_type: [`Choose one of: ${INTEGRATION_TYPES.join(', ')}.`] });
    }
    return toIntegration(await this.store.addIntegration(org.id, randomUUID(), req.integration_type));
  }

  async setIntegrationProjects(req: auth.SetIntegrationProjectsRequest): Promise<auth.Integration> {
    const { org, caller } = await this.allowed(req.caller, req.organization_id, 'projects');
    const integration = await this.store.integration(org.id, req.token);
    if (!integration) throw problems.invalidFields({ token: ['No integration of this workspace has this token.'] });
    const wanted = [...new Set(req.projects)];
    const known = await this.projectIdsOf(caller, org.id);
    const foreign = wanted.filter((id) => !known.has(id));
    if (foreign.length > 0)
      throw problems.invalidFields({ projects: [`Not projects of this workspace: ${foreign.join(', ')}.`] });
    return toIntegration(await this.store.setIntegrationProjects(integration.id, wanted));
  }

  async verifyIntegration(req: auth.VerifyIntegrationRequest): Promise<auth.Integration> {
    const { org } = await this.allowed(req.caller, req.organization_id, 'projects');
    const integration = await this.store.integration(org.id, req.token);
    if (!integration) throw problems.invalidFields({ token: ['No integration of this workspace has this token.'] });
    if (!this.crm) throw problems.invalid('Integration verification is not configured on this server.');
    const verified = await this.crm.verify(integration.token);
    this.deps.log.info({ organizationId: org.id, integrationId: integration.id, verified }, 'integration verified');
    return toIntegration(await this.store.setIntegrationVerified(integration.id, verified));
  }

  private async allowed(callerMsg: common.Caller | undefined, organizationId: number, permission: WorkspacePermission) {
    const caller = callerOf(callerMsg);
    const { org, member } = await visibleWorkspace(this.orgs, caller, organizationId);
    if (!canInWorkspace(caller, member, permission, org.flagged_features)) throw problems.forbidden();
    return { org, caller };
  }
}
