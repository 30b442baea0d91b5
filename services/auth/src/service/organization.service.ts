// Workspaces (organizations) and workspace users (spec 000 §7 Workspaces, §6).
import { canInWorkspace, canSetWorkspaceFeatures, WORKSPACE_FEATURES } from '@fieldwork/access';
import type { auth, common } from '@fieldwork/proto';
import { isProblem, problems, transaction } from '@fieldwork/service-kit';
import {
  displayName,
  invitationAnswer,
  isUnconfirmed,
  isValidEmail,
  MESSAGES,
  usernameFromEmail,
} from '../domain/accounts.js';
import { OrganizationStore } from '../store/organization.store.js';
import { visibleMembers, visibleWorkspace } from './workspace-access.js';
import { UserStore } from '../store/user.store.js';
import type { AccountService } from './account.service.js';
import { callerOf, isApiKey } from './caller.js';
import type { AuthDeps } from './deps.js';
import { toOrganization } from './mappers.js';

const ORG_NAME_MAX = 255;

export class OrganizationService {
  private readonly orgs: OrganizationStore;
  private readonly users: UserStore;

  constructor(
    private readonly deps: AuthDeps,
    private readonly accounts: AccountService,
  ) {
    this.orgs = new OrganizationStore(deps.sql);
    this.users = new UserStore(deps.sql);
  }

  async list(req: auth.ListOrganizationsRequest): Promise<auth.OrganizationList> {
    const caller = callerOf(req.caller);
    return { results: (await this.orgs.ofUser(caller.user_id)).map((o) => toOrganization(o)) };
  }

  async create(req: auth.CreateOrganizationRequest): Promise<auth.Organization> {
    const caller = callerOf(req.caller);
    if (isApiKey(caller)) throw problems.apiKeyNotAllowed();
    const name = this.checkName(req.name);
    const { org, members } = await transaction(this.deps.sql, async (tx) => {
      const store = new OrganizationStore(tx);
      const org = await store.create({ name, description: req.description.trim(), address: req.address.trim() });
      await store.addMember(org.id, caller.user_id, {
        owner: true,
        user_admin: false,
        project_admin: false,
        billing_admin: false,
      });
      return { org, members: await store.members(org.id) };
    });
    this.deps.log.info({ organizationId: org.id, userId: caller.user_id }, 'workspace created');
    return toOrganization(org, members);
  }

  async get(req: auth.GetOrganizationRequest): Promise<auth.Organization> {
    const caller = callerOf(req.caller);
    const { org, member } = await this.visible(caller, req.id);
    // Opening a workspace makes it the user's current one.
    await this.users.setCurrentOrganization(caller.user_id, org.id).catch(() => undefined);
    return toOrganization(org, visibleMembers(caller, org, member, await this.orgs.members(org.id)));
  }

  async update(req: auth.UpdateOrganizationRequest): Promise<auth.Organization> {
    const caller = callerOf(req.caller);
    const { org, member } = await this.visible(caller, req.id);
    if (!canInWorkspace(caller, member, 'org_details', org.flagged_features)) throw problems.forbidden();
    // Feature flags: staff and superusers only (spec 000 §6), each a known feature; left as they are when not sent
    // or unchanged (an owner saving the workspace's details sends back what they read).
    const features = req.flagged_features_given ? [...new Set(req.flagged_features)].sort() : undefined;
    const featuresChange = features !== undefined && features.join() !== [...org.flagged_features].sort().join();
    if (featuresChange) {
      if (!canSetWorkspaceFeatures(caller)) throw problems.forbidden();
      const unknown = features.filter((f) => !(WORKSPACE_FEATURES as readonly string[]).includes(f));
      if (unknown.length > 0)
        throw problems.invalidFields({
          flagged_features: [`Unknown features: ${unknown.join(', ')}. Known: ${WORKSPACE_FEATURES.join(', ')}.`],
        });
    }
    const updated = await this.orgs.update(org.id, {
      name: this.checkName(req.name),
      ...(req.description !== undefined ? { description: req.description.trim() } : {}),
      ...(req.address !== undefined ? { address: req.address.trim() } : {}),
    });
    if (featuresChange) {
      await this.orgs.setFeatures(org.id, features);
      updated!.flagged_features = features;
      await this.deps.audit.record({
        organization_id: org.id,
        actor_user_id: caller.user_id,
        event: 'workspace_features_changed',
        target: String(org.id),
        details: { before: org.flagged_features, after: features },
      });
    }
    return toOrganization(updated!, visibleMembers(caller, org, member, await this.orgs.members(org.id)));
  }

  /**
   * Invites an address to a workspace (issue 30 items 2 and 7). An account nobody uses yet is made without a password
   * (a password in the request is not used: one chosen by someone else must never sign in) and its address gets a link
   * to choose its own and join; an account that exists is invited to sign in and accept. Either way the answer is the
   * same invitation, made of what the caller sent.
   */
  async createUser(req: auth.CreateOrganizationUserRequest): Promise<auth.OrganizationUser> {
    const caller = callerOf(req.caller);
    const { org, member } = await this.visible(caller, req.organization);
    if (!canInWorkspace(caller, member, 'user_create', org.flagged_features)) throw problems.forbidden();
    const grantsRoles = req.owner || req.user_admin || req.project_admin || req.billing_admin;
    // Only an owner hands out workspace roles; a user admin creates plain members.
    if (grantsRoles && !canInWorkspace(caller, member, 'org_details', org.flagged_features)) throw problems.forbidden();

    const email = req.email.trim();
    if (!isValidEmail(email)) throw problems.invalidFields({ email: [MESSAGES.email] });
    const names = { first_name: req.first_name.trim(), last_name: req.last_name.trim() };
    const roles = {
      owner: req.owner,
      user_admin: req.user_admin,
      project_admin: req.project_admin,
      billing_admin: req.billing_admin,
    };
    const inviter = await this.users.byId(caller.user_id);
    const invitedBy = inviter ? displayName(inviter) : '';
    const invite = () =>
      transaction(this.deps.sql, async (tx) => {
        const users = new UserStore(tx);
        const store = new OrganizationStore(tx);
        const existing = await users.byEmail(email);
        const user =
          existing ??
          (await users.create({ username: usernameFromEmail(email), email, ...names, password_hash: null }));
        const pending = existing !== undefined && (await store.member(org.id, user.id))?.invited_at != null;
        const row = await store.invite(org.id, user.id, roles, caller.user_id);
        if (!row) throw problems.userAlreadyMember();
        // One mail per invitation: inviting again (new roles) does not mail the person again.
        if (!pending) {
          if (isUnconfirmed(user)) await this.accounts.mailInvitationLink(user, org, invitedBy, tx);
          else await this.accounts.mailInvitation(user, org.name, tx);
        }
        return { userId: user.id, created: existing === undefined };
      });
    let added: { userId: number; created: boolean };
    try {
      added = await invite();
    } catch (err) {
      // Two adds of one new address at once: the other made the account between this one's read and its insert; a
      // second try invites that account (and answers the same).
      if (!(isProblem(err) && err.fields?.email)) throw err;
      added = await invite();
    }
    this.deps.log.info(
      { organizationId: org.id, userId: added.userId, by: caller.user_id, created: added.created },
      'workspace user invited',
    );
    await this.deps.audit.record({
      organization_id: org.id,
      actor_user_id: caller.user_id,
      event: 'workspace_user_invited',
      target: email,
      details: { roles: Object.fromEntries(Object.entries(roles).filter(([, v]) => v)) },
    });
    return invitationAnswer({ email, ...names, organization: org.id, roles });
  }

  async membership(req: auth.GetMembershipRequest): Promise<auth.Membership> {
    const [org, user] = await Promise.all([this.orgs.byId(req.organization_id), this.users.byId(req.user_id)]);
    const m = org && user ? await this.orgs.member(org.id, user.id) : undefined;
    const active = m?.is_active === true;
    return {
      member: active,
      owner: active && m.owner,
      user_admin: active && m.user_admin,
      project_admin: active && m.project_admin,
      billing_admin: active && m.billing_admin,
      flagged_features: org?.flagged_features ?? [],
      is_staff: user?.is_staff ?? false,
      is_superuser: user?.is_superuser ?? false,
    };
  }

  private visible(caller: common.Caller, id: number) {
    return visibleWorkspace(this.orgs, caller, id);
  }

  private checkName(raw: string): string {
    const name = raw.trim();
    if (name === '') throw problems.invalidFields({ name: [MESSAGES.blank] });
    if (name.length > ORG_NAME_MAX)
      throw problems.invalidFields({ name: [`Ensure this field has no more than ${ORG_NAME_MAX} characters.`] });
    return name;
  }
}
