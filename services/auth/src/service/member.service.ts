// Workspace users (spec 000 §7 Workspaces, §6 edit rules) and the member lookups projects need.
import { canEditWorkspaceUser, canInWorkspace } from '@fieldwork/access';
import type { auth, common } from '@fieldwork/proto';
import { isProblem, problems, transaction, type FieldErrors } from '@fieldwork/service-kit';
import {
  addFieldErrors,
  displayName,
  isUnconfirmed,
  isValidEmail,
  MESSAGES,
  usernameFromEmail,
} from '../domain/accounts.js';
import { OrganizationStore } from '../store/organization.store.js';
import { UserStore, type UserRow } from '../store/user.store.js';
import type { AccountService } from './account.service.js';
import { callerOf } from './caller.js';
import type { AuthDeps } from './deps.js';
import { toMember } from './mappers.js';
import { visibleWorkspace } from './workspace-access.js';

const brief = (u: UserRow, member: boolean): auth.UserBrief => ({
  id: u.id,
  username: u.username,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  name: displayName(u),
  member,
  is_mobilemanager: u.is_mobilemanager,
});

/** Workspace member listings: 50 a page unless asked, at most 500 (a larger page size is capped and said so). */
export const MEMBER_PAGE_SIZE = 50;
export const MEMBER_MAX_PAGE_SIZE = 500;

export class MemberService {
  private readonly orgs: OrganizationStore;
  private readonly users: UserStore;

  constructor(
    private readonly deps: AuthDeps,
    private readonly accounts: AccountService,
  ) {
    this.orgs = new OrganizationStore(deps.sql);
    this.users = new UserStore(deps.sql);
  }

  /** A page of the workspace's active members, searched by name, username or email, with the total (no cap). */
  async list(req: auth.ListOrganizationUsersRequest): Promise<auth.OrganizationUserList> {
    const caller = callerOf(req.caller);
    const { org, member } = await visibleWorkspace(this.orgs, caller, req.organization_id);
    const allowed = ['user_access', 'user_create'] as const;
    if (!allowed.some((p) => canInWorkspace(caller, member, p, org.flagged_features))) throw problems.forbidden();
    const asked = req.page_size > 0 ? req.page_size : MEMBER_PAGE_SIZE;
    const size = Math.min(asked, MEMBER_MAX_PAGE_SIZE);
    const page = Math.max(req.page || 1, 1);
    const { rows, count } = await this.orgs.membersPage(org.id, {
      search: req.search,
      limit: size,
      offset: (page - 1) * size,
    });
    return { results: rows.map(toMember), count, page_size: size, page_size_capped: asked > MEMBER_MAX_PAGE_SIZE };
  }

  /** The ids of the workspace's active members matching a search (internal: project user listings page on them). */
  async memberIds(req: auth.MemberIdsRequest): Promise<auth.MemberIdList> {
    return { user_ids: await this.orgs.memberIds(req.organization_id, req.search) };
  }

  async update(req: auth.UpdateOrganizationUserRequest): Promise<auth.OrganizationUser> {
    const caller = callerOf(req.caller);
    const { org, target } = await this.editable(caller, req.organization_id, req.user_id);
    const rolesAsked =
      req.user_admin !== undefined || req.project_admin !== undefined || req.billing_admin !== undefined;
    const member = await this.orgs.member(org.id, caller.user_id);
    if (
      rolesAsked &&
      !canInWorkspace(caller, member?.is_active ? member : undefined, 'org_details', org.flagged_features)
    ) {
      throw problems.forbidden();
    }
    const fields: FieldErrors = {};
    for (const f of ['first_name', 'last_name'] as const) {
      if ((req[f]?.trim().length ?? 0) > 150) addFieldErrors(fields, f, [MESSAGES.nameTooLong]);
    }
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const names = req.first_name !== undefined || req.last_name !== undefined;
    // The name is the account's, seen in every workspace: a workspace may change it only on an account that is its
    // alone; roles are the workspace's own.
    if (names && !caller.is_staff && !caller.is_superuser && (await this.orgs.belongsElsewhere(target.user_id, org.id)))
      throw problems.accountShared();
    await transaction(this.deps.sql, async (tx) => {
      if (names) {
        await new UserStore(tx).updateNames(target.user_id, {
          ...(req.first_name !== undefined ? { first_name: req.first_name.trim() } : {}),
          ...(req.last_name !== undefined ? { last_name: req.last_name.trim() } : {}),
        });
      }
      if (rolesAsked) {
        await new OrganizationStore(tx).updateMemberRoles(org.id, target.user_id, {
          ...(req.user_admin !== undefined ? { user_admin: req.user_admin } : {}),
          ...(req.project_admin !== undefined ? { project_admin: req.project_admin } : {}),
          ...(req.billing_admin !== undefined ? { billing_admin: req.billing_admin } : {}),
        });
      }
    });
    this.deps.log.info(
      { organizationId: org.id, userId: target.user_id, by: caller.user_id, roles: rolesAsked },
      'workspace user edited',
    );
    if (rolesAsked) {
      const roles = Object.fromEntries(
        (['user_admin', 'project_admin', 'billing_admin'] as const)
          .filter((k) => req[k] !== undefined)
          .map((k) => [k, req[k]]),
      );
      await this.deps.audit.record({
        organization_id: org.id,
        actor_user_id: caller.user_id,
        event: 'workspace_user_updated',
        target: String(target.user_id),
        details: { roles },
      });
    }
    return toMember((await this.orgs.member(org.id, target.user_id))!);
  }

  async remove(req: auth.OrganizationUserRef): Promise<common.Empty> {
    const caller = callerOf(req.caller);
    const { org, target } = await this.editable(caller, req.organization_id, req.user_id);
    await this.orgs.deactivateMember(org.id, target.user_id);
    this.deps.log.info(
      { organizationId: org.id, userId: target.user_id, by: caller.user_id },
      'workspace user removed',
    );
    await this.deps.audit.record({
      organization_id: org.id,
      actor_user_id: caller.user_id,
      event: 'workspace_user_removed',
      target: String(target.user_id),
    });
    return {};
  }

  async getUsers(req: auth.GetUsersRequest): Promise<auth.UserBriefList> {
    const ids = [...new Set(req.user_ids)];
    const users = await this.users.byIds(ids);
    const active = req.organization_id > 0 ? await this.orgs.activeAmong(req.organization_id, ids) : new Set();
    return { results: users.map((u) => brief(u, active.has(u.id))) };
  }

  /**
   * Finds the account of an address, or makes one nobody can sign in to yet, and invites it to the workspace (issue 30
   * item 2): an account nobody confirmed gets a link to choose its own password and join (a password in the request
   * is not used), one that exists an invitation to accept. A member already stays as it is.
   */
  async ensureMember(req: auth.EnsureMemberRequest): Promise<auth.EnsureMemberReply> {
    const org = await this.orgs.byId(req.organization_id);
    if (!org) throw problems.invalidOrganizationId();
    const email = req.email.trim();
    if (!isValidEmail(email)) throw problems.invalidFields({ email: [MESSAGES.email] });
    const inviter = req.invited_by > 0 ? await this.users.byId(req.invited_by) : undefined;
    const ensure = () => this.ensureOnce(org, email, inviter ? displayName(inviter) : '', req);
    try {
      return await ensure();
    } catch (err) {
      // Two adds of one new address at once: the other created the account between this one's read and its insert
      // (the unique email refused this insert); a second try finds that account and invites it.
      if (isProblem(err) && err.fields?.email && (await new UserStore(this.deps.sql).byEmail(email))) return ensure();
      throw err;
    }
  }

  private ensureOnce(
    org: { id: number; name: string },
    email: string,
    invitedBy: string,
    req: auth.EnsureMemberRequest,
  ): Promise<auth.EnsureMemberReply> {
    return transaction(this.deps.sql, async (tx) => {
      const users = new UserStore(tx);
      const store = new OrganizationStore(tx);
      const existing = await users.byEmail(email);
      const membership = existing ? await store.member(org.id, existing.id) : undefined;
      if (existing && membership?.is_active) return { user: brief(existing, true), created: false, invited: false };
      const user =
        existing ??
        (await users.create({
          username: usernameFromEmail(email),
          email,
          first_name: req.first_name.trim(),
          last_name: req.last_name.trim(),
          password_hash: null,
        }));
      // The person is a member (and so a project user) once they accept. One mail per invitation.
      await store.invite(org.id, user.id, undefined, req.invited_by);
      if (membership?.invited_at == null) {
        const where = { id: org.id, name: req.project_name ? `${org.name}: ${req.project_name}` : org.name };
        if (isUnconfirmed(user)) await this.accounts.mailInvitationLink(user, where, invitedBy, tx);
        else await this.accounts.mailInvitation(user, where.name, tx);
      }
      return { user: brief(user, false), created: existing === undefined, invited: true };
    });
  }

  /** The caller's invitations not yet answered. */
  async invitations(req: auth.ListOrganizationsRequest): Promise<auth.InvitationList> {
    const caller = callerOf(req.caller);
    const rows = await this.orgs.invitationsOf(caller.user_id);
    return {
      results: rows.map((r) => ({
        organization: { id: r.organization_id, name: r.organization_name },
        invited_by: r.invited_by,
        time: r.invited_at.toISOString(),
        accepted: false,
      })),
    };
  }

  /** Accepts (the caller becomes a member with the roles they were invited with) or declines an invitation. */
  async answerInvitation(req: auth.AnswerInvitationRequest): Promise<auth.Invitation> {
    const caller = callerOf(req.caller);
    const org = req.organization_id > 0 ? await this.orgs.byId(req.organization_id) : undefined;
    if (!org || !(await this.orgs.answerInvitation(org.id, caller.user_id, req.accept))) throw problems.noInvitation();
    this.deps.log.info({ organizationId: org.id, userId: caller.user_id, accepted: req.accept }, 'invitation answered');
    await this.deps.audit.record({
      organization_id: org.id,
      actor_user_id: caller.user_id,
      event: req.accept ? 'invitation_accepted' : 'invitation_declined',
      target: String(caller.user_id),
    });
    return {
      organization: { id: org.id, name: org.name },
      invited_by: '',
      time: new Date().toISOString(),
      accepted: req.accept,
    };
  }

  /** The target member, if the caller may edit them: user_access, a non-owner target, never oneself. */
  private async editable(caller: common.Caller, organizationId: number, userId: number) {
    const { org, member } = await visibleWorkspace(this.orgs, caller, organizationId);
    if (!canInWorkspace(caller, member, 'user_access', org.flagged_features)) throw problems.forbidden();
    const target = userId > 0 ? await this.orgs.member(org.id, userId) : undefined;
    if (!target || !target.is_active) throw problems.invalidWorkspaceOrUserId();
    if (!canEditWorkspaceUser(caller.user_id, { user: target.user_id, owner: target.owner }))
      throw problems.forbidden();
    return { org, target };
  }
}
