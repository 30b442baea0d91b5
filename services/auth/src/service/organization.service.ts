// Workspaces (organizations) and workspace users (spec 000 §7 Workspaces, §6).
import { canInWorkspace, canSetWorkspaceFeatures, WORKSPACE_FEATURES } from '@fieldwork/access';
import type { auth, common } from '@fieldwork/proto';
import { problems, type FieldErrors, transaction } from '@fieldwork/service-kit';
import { addFieldErrors, isValidEmail, MESSAGES, passwordProblems, usernameFromEmail } from '../domain/accounts.js';
import { OrganizationStore } from '../store/organization.store.js';
import { visibleMembers, visibleWorkspace } from './workspace-access.js';
import { OutboxStore } from '../store/outbox.store.js';
import { UserStore } from '../store/user.store.js';
import type { AccountService } from './account.service.js';
import { callerOf, isApiKey } from './caller.js';
import type { AuthDeps } from './deps.js';
import { toMember, toOrganization } from './mappers.js';

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

  /** Creates a user by email (username: the lower-cased email), or adds an existing one, to a workspace. */
  async createUser(req: auth.CreateOrganizationUserRequest): Promise<auth.OrganizationUser> {
    const caller = callerOf(req.caller);
    const { org, member } = await this.visible(caller, req.organization);
    if (!canInWorkspace(caller, member, 'user_create', org.flagged_features)) throw problems.forbidden();
    const grantsRoles = req.owner || req.user_admin || req.project_admin || req.billing_admin;
    // Only an owner hands out workspace roles; a user admin creates plain members.
    if (grantsRoles && !canInWorkspace(caller, member, 'org_details', org.flagged_features)) throw problems.forbidden();

    const fields: FieldErrors = {};
    const email = req.email.trim();
    if (!isValidEmail(email)) addFieldErrors(fields, 'email', [MESSAGES.email]);
    const password = req.password.trim();
    if (password !== '')
      addFieldErrors(fields, 'password', passwordProblems(password, { username: usernameFromEmail(email), email }));
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const hash = password === '' ? null : await this.deps.hasher.hash(password);

    const roles = {
      owner: req.owner,
      user_admin: req.user_admin,
      project_admin: req.project_admin,
      billing_admin: req.billing_admin,
    };
    const added = await transaction(this.deps.sql, async (tx) => {
      const users = new UserStore(tx);
      const store = new OrganizationStore(tx);
      const existing = await users.byEmail(email);
      if (existing) {
        // An account that exists is the person's, not this workspace's: it is invited, and joins only if it accepts.
        const pending = (await store.member(org.id, existing.id))?.invited_at != null;
        const row = await store.invite(org.id, existing.id, roles, caller.user_id);
        if (!row) throw problems.userAlreadyMember();
        // One mail per invitation: inviting again (new roles) does not mail the person again.
        if (!pending) await this.accounts.mailInvitation(existing, org.name, tx);
        return row;
      }
      const user = await users.create({
        username: usernameFromEmail(email),
        email,
        first_name: req.first_name.trim(),
        last_name: req.last_name.trim(),
        password_hash: hash,
      });
      const row = await store.addMember(org.id, user.id, roles);
      if (!row) throw problems.userAlreadyMember();
      if (hash === null) {
        await this.accounts.mailPasswordLink(user, 'set', tx);
      } else {
        await new OutboxStore(tx).enqueue({
          to: user.email,
          subject: `Fieldwork: you were added to ${org.name}`,
          body: `You can now sign in to the workspace "${org.name}" at ${this.deps.settings.publicUrl}/login-home/login as ${user.username}.`,
        });
      }
      return row;
    });
    this.deps.log.info(
      { organizationId: org.id, userId: added.user_id, by: caller.user_id, invited: !added.is_active },
      'workspace user added',
    );
    if (!added.is_active)
      await this.deps.audit.record({
        organization_id: org.id,
        actor_user_id: caller.user_id,
        event: 'workspace_user_invited',
        target: String(added.user_id),
      });
    return toMember(added);
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
