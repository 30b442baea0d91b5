// Operator calls for the CLI and the demo seed. The gateway never exposes them.
import type { auth, common } from '@fieldwork/proto';
import { problems, transaction } from '@fieldwork/service-kit';
import { isValidEmail, MESSAGES, passwordProblems, usernameFromEmail } from '../domain/accounts.js';
import { LoginThrottleStore } from '../store/login-throttle.store.js';
import { OutboxStore } from '../store/outbox.store.js';
import { OrganizationStore } from '../store/organization.store.js';
import { RevocationStore } from '../store/revocation.store.js';
import { SessionStore } from '../store/session.store.js';
import { UserStore } from '../store/user.store.js';
import type { AuthDeps } from './deps.js';
import { toOrganization, toUser } from './mappers.js';

export class AdminService {
  private readonly users: UserStore;
  private readonly orgs: OrganizationStore;

  constructor(private readonly deps: AuthDeps) {
    this.users = new UserStore(deps.sql);
    this.orgs = new OrganizationStore(deps.sql);
  }

  async createUser(req: auth.AdminCreateUserRequest): Promise<auth.User> {
    if (!isValidEmail(req.email)) throw problems.invalidFields({ email: [MESSAGES.email] });
    const username = (req.username.trim() || usernameFromEmail(req.email)).toLowerCase();
    const existing = (await this.users.byUsername(username)) ?? (await this.users.byEmail(req.email));
    if (existing) {
      if (!req.if_not_exists) throw problems.alreadyExists('A user with this username or email');
      return toUser(existing, await this.orgs.ofUser(existing.id));
    }
    const policy = passwordProblems(req.password, { username, email: req.email });
    if (policy.length > 0) throw problems.invalidFields({ password: policy });
    const created = await this.users.create({
      username,
      email: req.email,
      first_name: req.first_name.trim(),
      last_name: req.last_name.trim(),
      password_hash: await this.deps.hasher.hash(req.password),
      is_staff: req.is_staff,
      is_superuser: req.is_superuser,
    });
    this.deps.log.info({ userId: created.id, username }, 'user created by operator');
    return toUser(created, []);
  }

  async createOrganization(req: auth.AdminCreateOrganizationRequest): Promise<auth.Organization> {
    const name = req.name.trim();
    if (name === '') throw problems.invalidFields({ name: [MESSAGES.blank] });
    const owner = await this.users.byUsername(req.owner_username.trim().toLowerCase());
    if (!owner) throw problems.invalidFields({ owner_username: ['No user has this username.'] });
    const existing = await this.orgs.byName(name);
    if (existing && !req.if_not_exists) throw problems.alreadyExists('A workspace with this name');
    const org = await transaction(this.deps.sql, async (tx) => {
      const store = new OrganizationStore(tx);
      const org = existing ?? (await store.create({ name, description: req.description.trim(), address: '' }));
      await store.addMember(org.id, owner.id, {
        owner: true,
        user_admin: false,
        project_admin: false,
        billing_admin: false,
      });
      return org;
    });
    return toOrganization(org, await this.orgs.members(org.id));
  }

  /** Another service's mail (the open-responses list, say), through the same outbox as account mail. */
  async sendMail(req: auth.SendMailRequest): Promise<common.Empty> {
    if (!isValidEmail(req.to)) throw problems.invalidFields({ send_to: [MESSAGES.email] });
    await new OutboxStore(this.deps.sql).enqueue({ to: req.to, subject: req.subject.slice(0, 200), body: req.body });
    return {};
  }

  async setFeatures(req: auth.AdminSetFeaturesRequest): Promise<auth.Organization> {
    const org = await this.orgs.byId(req.organization_id);
    if (!org) throw problems.invalidOrganizationId();
    const features = new Set(org.flagged_features);
    for (const f of req.enable) if (/^[a-z][a-z0-9_-]{0,40}$/.test(f)) features.add(f);
    for (const f of req.disable) features.delete(f);
    await this.orgs.setFeatures(org.id, [...features].sort());
    return toOrganization((await this.orgs.byId(org.id))!, await this.orgs.members(org.id));
  }

  async setPassword(req: auth.AdminSetPasswordRequest): Promise<auth.User> {
    const user = await this.users.byUsername(req.username.trim().toLowerCase());
    if (!user) throw problems.invalidFields({ username: ['No user has this username.'] });
    const policy = passwordProblems(req.password, user);
    if (policy.length > 0) throw problems.invalidFields({ password: policy });
    const hash = await this.deps.hasher.hash(req.password);
    await transaction(this.deps.sql, async (tx) => {
      await new UserStore(tx).setPasswordHash(user.id, hash);
      await new LoginThrottleStore(tx).clearAccount(user.id);
      // New credentials end what the old ones gave, as a change or reset does.
      await new SessionStore(tx).revokeAllOf(user.id);
      await new RevocationStore(tx).revokeShares(user.id);
    });
    this.deps.log.info({ userId: user.id }, 'password set by operator');
    return toUser(user, await this.orgs.ofUser(user.id));
  }
}
