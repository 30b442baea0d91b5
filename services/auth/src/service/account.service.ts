// Users, their settings, password reset and change, and the sign-up helpers (spec 000 §7 Accounts).
import type { auth, common } from '@fieldwork/proto';
import { problems, type FieldErrors, transaction } from '@fieldwork/service-kit';
import {
  addFieldErrors,
  checkAgreedVersion,
  emailDomain,
  isUnconfirmed,
  isValidEmail,
  MESSAGES,
  passwordProblems,
} from '../domain/accounts.js';
import { OrganizationStore } from '../store/organization.store.js';
import { OutboxStore } from '../store/outbox.store.js';
import { LoginThrottleStore } from '../store/login-throttle.store.js';
import { RevocationStore } from '../store/revocation.store.js';
import { SessionStore } from '../store/session.store.js';
import { UserStore, type UserRow } from '../store/user.store.js';
import { randomToken, sha256 } from './crypto.js';
import type { AuthDeps } from './deps.js';
import { toUser } from './mappers.js';
import { callerOf } from './caller.js';

/** Public mail domains never match a workspace. */
const PUBLIC_DOMAINS = new Set([
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'proton.me',
  'example.com',
]);
const NAME_MAX = 150;
/** Password reset mails to one account within an hour. */
const RESET_MAILS_PER_HOUR = 3;
/** Invitation requests recorded (and mailed to the operator) for one address within an hour. */
const INVITE_REQUESTS_PER_HOUR = 3;

export class AccountService {
  private readonly users: UserStore;
  private readonly orgs: OrganizationStore;

  constructor(private readonly deps: AuthDeps) {
    this.users = new UserStore(deps.sql);
    this.orgs = new OrganizationStore(deps.sql);
  }

  async getUser(req: auth.GetUserRequest): Promise<auth.User> {
    const caller = callerOf(req.caller);
    // The hot path (a user reading itself, once per page load) is one query.
    const user = await this.users.withOrganizations(req.id);
    if (!user) throw problems.notFound();
    if (user.id === caller.user_id || caller.is_staff || caller.is_superuser) return toUser(user, user.organizations);
    await this.visibleUser(req.caller, req.id);
    // Another workspace's administrator sees only the workspaces they share with the user, not the user's others.
    const mine = new Set((await this.orgs.ofUser(caller.user_id)).map((o) => o.id));
    return toUser(
      user,
      user.organizations.filter((o) => mine.has(o.id)),
    );
  }

  async updateUser(req: auth.UpdateUserRequest): Promise<auth.User> {
    const user = await this.ownUser(req.caller, req.id);
    const fields: FieldErrors = {};
    for (const f of ['first_name', 'last_name'] as const) {
      const v = req[f];
      if (v !== undefined && v.trim().length > NAME_MAX) addFieldErrors(fields, f, [MESSAGES.nameTooLong]);
    }
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const updated = await this.users.updateNames(user.id, {
      ...(req.first_name !== undefined ? { first_name: req.first_name.trim() } : {}),
      ...(req.last_name !== undefined ? { last_name: req.last_name.trim() } : {}),
    });
    return toUser(updated!, await this.orgs.ofUser(user.id));
  }

  async updateSettings(req: auth.UpdateSettingsRequest): Promise<auth.User> {
    const user = await this.ownUser(req.caller, req.id);
    if (req.agreed_terms === undefined && req.agreed_privacy === undefined) {
      throw problems.invalid('Provide agreed_terms or agreed_privacy.');
    }
    const fields: FieldErrors = {};
    if (req.agreed_terms !== undefined)
      addFieldErrors(fields, 'agreed_terms', checkAgreedVersion('agreed_terms', req.agreed_terms));
    if (req.agreed_privacy !== undefined) {
      addFieldErrors(fields, 'agreed_privacy', checkAgreedVersion('agreed_privacy', req.agreed_privacy));
    }
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const updated = await this.users.updateSettings(user.id, {
      ...(req.agreed_terms !== undefined ? { agreed_terms: req.agreed_terms } : {}),
      ...(req.agreed_privacy !== undefined ? { agreed_privacy: req.agreed_privacy } : {}),
    });
    return toUser(updated!, await this.orgs.ofUser(user.id));
  }

  /** Always succeeds, so the answer never tells whether an address has an account. */
  async requestPasswordReset(req: auth.RequestPasswordResetRequest): Promise<common.Empty> {
    if (!isValidEmail(req.email)) throw problems.invalidFields({ email: [MESSAGES.email] });
    const user = await this.users.byEmail(req.email);
    if (!user || !user.is_active) {
      this.deps.log.info('password reset asked for an unknown address');
      return {};
    }
    // An account nobody confirmed yet is confirmed by answering one of its invitations: its links are mailed again
    // (a plain reset would set a password but join no workspace, and sign-in needs one).
    const unconfirmed = isUnconfirmed(user);
    const purpose = unconfirmed ? 'set' : 'reset';
    // At most a few reset mails an hour to one person, from however many addresses: the answer stays the same.
    if ((await this.users.recentNonces(user.id, purpose, 3600)) >= RESET_MAILS_PER_HOUR) {
      this.deps.log.info({ userId: user.id }, 'password reset mail withheld: too many this hour');
      return {};
    }
    if (!unconfirmed) {
      await this.mailPasswordLink(user, 'reset');
      return {};
    }
    const pending = (await this.orgs.invitationsOf(user.id)).slice(0, RESET_MAILS_PER_HOUR);
    for (const i of pending)
      await this.mailInvitationLink(user, { id: i.organization_id, name: i.organization_name }, i.invited_by);
    return {};
  }

  async resetPassword(req: auth.ResetPasswordRequest): Promise<common.Empty> {
    const fields: FieldErrors = {};
    if (req.nonce.trim() === '') addFieldErrors(fields, 'nonce', [MESSAGES.blank]);
    if (req.password.trim() === '') addFieldErrors(fields, 'password', [MESSAGES.blank]);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const user = await this.users.byEmail(req.email);
    if (!user || !user.is_active) throw problems.resetLinkInvalid();
    const password = req.password.trim();
    const policy = passwordProblems(password, user);
    if (policy.length > 0) throw problems.invalidFields({ password: policy });
    const hash = await this.deps.hasher.hash(password);
    const accepted = await transaction(this.deps.sql, async (tx) => {
      const link = await new UserStore(tx).consumeNonce(user.id, sha256(req.nonce.trim()));
      if (!link) throw problems.resetLinkInvalid();
      await new UserStore(tx).setPasswordHash(user.id, hash);
      // An invitation's link: choosing a password from it confirms the address and accepts that invitation.
      const org = link.organization_id;
      const joined = org !== null && (await new OrganizationStore(tx).answerInvitation(org, user.id, true));
      await new LoginThrottleStore(tx).clearAccount(user.id);
      await new SessionStore(tx).revokeAllOf(user.id);
      // New credentials end everything the old ones gave: sessions, and the share links the account made.
      await new RevocationStore(tx).revokeShares(user.id);
      return joined ? org : null;
    });
    this.deps.log.info({ userId: user.id, accepted }, 'password reset');
    if (accepted !== null)
      await this.deps.audit.record({
        organization_id: accepted,
        actor_user_id: user.id,
        event: 'invitation_accepted',
        target: String(user.id),
      });
    return {};
  }

  async changePassword(req: auth.ChangePasswordRequest): Promise<common.Empty> {
    const caller = callerOf(req.caller);
    if (req.new_password.trim() === '' || (req.old_password.trim() === '' && req.firebase_id.trim() === '')) {
      throw problems.missingCredentials();
    }
    const user = await this.users.byEmail(req.email);
    if (!user || (user.id !== caller.user_id && !caller.is_superuser)) {
      throw problems.invalidFields({ username: ['You can only change your own password.'] });
    }
    if (req.old_password.trim() === '') {
      throw problems.invalid('Sign-in through an identity provider is not enabled on this server.');
    }
    if (user.password_hash === null || !(await this.deps.hasher.verify(user.password_hash, req.old_password.trim()))) {
      throw problems.invalidFields({ old_password: [MESSAGES.wrongPassword] });
    }
    const password = req.new_password.trim();
    const policy = passwordProblems(password, user);
    if (policy.length > 0) throw problems.invalidFields({ new_password: policy });
    const hash = await this.deps.hasher.hash(password);
    await transaction(this.deps.sql, async (tx) => {
      await new UserStore(tx).setPasswordHash(user.id, hash);
      await new SessionStore(tx).revokeAllOf(user.id);
      await new RevocationStore(tx).revokeShares(user.id);
    });
    this.deps.log.info({ userId: user.id }, 'password changed');
    return {};
  }

  async emailCheck(req: auth.EmailCheckRequest): Promise<auth.EmailCheckReply> {
    if (!isValidEmail(req.email)) throw problems.invalidFields({ email: [MESSAGES.email] });
    return { email: req.email.trim(), exists: (await this.users.byEmail(req.email)) !== undefined };
  }

  async requestInvite(req: auth.RequestInviteRequest): Promise<common.Empty> {
    if (!isValidEmail(req.email)) throw problems.invalidFields({ email: [MESSAGES.email] });
    const invite = {
      email: req.email.trim(),
      name: req.name.trim().slice(0, 200),
      organization: req.organization.trim().slice(0, 200),
    };
    // Repeats of one address within the hour are not recorded nor mailed again: the answer stays the same.
    if ((await this.users.recentInviteRequests(invite.email, 3600)) >= INVITE_REQUESTS_PER_HOUR) return {};
    await transaction(this.deps.sql, async (tx) => {
      await new UserStore(tx).addInviteRequest(invite);
      if (this.deps.settings.inviteNotifyEmail !== '') {
        await new OutboxStore(tx).enqueue({
          to: this.deps.settings.inviteNotifyEmail,
          subject: 'Fieldwork: a request for an invitation',
          body: `${invite.name} <${invite.email}> of "${invite.organization}" asks to join Fieldwork.`,
        });
      }
    });
    return {};
  }

  async organizationMatch(req: auth.OrganizationMatchRequest): Promise<auth.OrganizationMatchReply> {
    if (!isValidEmail(req.org_email)) throw problems.invalidFields({ org_email: [MESSAGES.email] });
    const domain = emailDomain(req.org_email);
    if (PUBLIC_DOMAINS.has(domain)) return { match: false, organizations: [] };
    const organizations = await this.orgs.byMemberEmailDomain(domain);
    return { match: organizations.length > 0, organizations };
  }

  /** Writes a single-use link to the outbox: reset (forgot password) or set (a new user without a password). */
  async mailPasswordLink(user: UserRow, purpose: 'reset' | 'set', tx = this.deps.sql): Promise<void> {
    const nonce = randomToken();
    const ttl =
      purpose === 'reset' ? this.deps.settings.resetNonceTtlSeconds : this.deps.settings.setPasswordTtlSeconds;
    const link = `${this.deps.settings.publicUrl}/${purpose === 'reset' ? 'reset-password' : 'set-password'}/${encodeURIComponent(user.email)}/${nonce}`;
    const hours = Math.round(ttl / 3600);
    await new UserStore(tx).addNonce(user.id, sha256(nonce), purpose, new Date(Date.now() + ttl * 1000));
    await new OutboxStore(tx).enqueue({
      to: user.email,
      subject: purpose === 'reset' ? 'Fieldwork: reset your password' : 'Fieldwork: set your password',
      body:
        purpose === 'reset'
          ? `Someone asked to reset the password of your Fieldwork account ${user.username}.\n\nOpen this link within ${hours} hours to choose a new one:\n${link}\n\nIf it was not you, ignore this mail.`
          : `An account was created for you on Fieldwork (username ${user.username}).\n\nOpen this link within ${hours} hours to set your password:\n${link}`,
    });
  }

  /**
   * Invites an address whose account nobody confirmed yet (made by someone else, no password, never signed in): a
   * single-use link with which the person chooses their own password and accepts this workspace's invitation.
   */
  async mailInvitationLink(
    user: UserRow,
    org: { id: number; name: string },
    invitedBy: string,
    tx = this.deps.sql,
  ): Promise<void> {
    const nonce = randomToken();
    const ttl = this.deps.settings.setPasswordTtlSeconds;
    const link = `${this.deps.settings.publicUrl}/set-password/${encodeURIComponent(user.email)}/${nonce}`;
    await new UserStore(tx).addNonce(user.id, sha256(nonce), 'set', new Date(Date.now() + ttl * 1000), org.id);
    const who = invitedBy === '' ? 'You were invited' : `${invitedBy} invited you`;
    await new OutboxStore(tx).enqueue({
      to: user.email,
      subject: `Fieldwork: an invitation to ${org.name}`,
      body: `${who} to the workspace "${org.name}" on Fieldwork.\n\nOpen this link within ${Math.round(ttl / 3600)} hours to choose your password and join it:\n${link}\n\nIf you did not expect this, ignore this mail: nobody can sign in to this account until a password is chosen with a link sent to this address.`,
    });
  }

  /** Tells an existing account it was invited to a workspace, and where to answer (the settings screen). */
  async mailInvitation(user: UserRow, organizationName: string, tx = this.deps.sql): Promise<void> {
    await new OutboxStore(tx).enqueue({
      to: user.email,
      subject: `Fieldwork: an invitation to ${organizationName}`,
      body: `You were invited to the workspace "${organizationName}" on Fieldwork.\n\nSign in as ${user.username} and accept or decline it in your settings:\n${this.deps.settings.publicUrl}/user-settings\n\nUntil you accept, the workspace sees nothing of your account but this address.`,
    });
  }

  /** The user, if the caller may see it: themselves, staff, or an owner/admin of a workspace they share. */
  private async visibleUser(callerMsg: auth.GetUserRequest['caller'], id: number): Promise<UserRow> {
    const caller = callerOf(callerMsg);
    const user = await this.users.byId(id);
    if (!user) throw problems.notFound();
    if (user.id === caller.user_id || caller.is_staff || caller.is_superuser) return user;
    for (const org of await this.orgs.ofUser(user.id)) {
      const m = await this.orgs.member(org.id, caller.user_id);
      if (m?.is_active && (m.owner || m.user_admin || m.project_admin)) return user;
    }
    throw problems.notFound();
  }

  /** The user, if it is the caller (or the caller is a superuser). */
  private async ownUser(callerMsg: auth.GetUserRequest['caller'], id: number): Promise<UserRow> {
    const caller = callerOf(callerMsg);
    if (id !== caller.user_id && !caller.is_superuser) {
      throw (await this.users.byId(id)) ? problems.forbidden() : problems.notFound();
    }
    const user = await this.users.byId(id);
    if (!user) throw problems.notFound();
    return user;
  }
}
