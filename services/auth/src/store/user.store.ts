// All SQL of users and password nonces.
import { pgErrorCode, PG_UNIQUE_VIOLATION, problems, type Sql } from '@fieldwork/service-kit';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  is_staff: boolean;
  is_superuser: boolean;
  is_mobilemanager: boolean;
  is_active: boolean;
  agreed_terms: string;
  agreed_privacy: string;
  lifetime_datapoints: number;
  lifetime_hours: number;
  current_organization_id: number | null;
  last_login: Date | null;
  time_created: Date;
}

export interface NewUser {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  is_staff?: boolean;
  is_superuser?: boolean;
}

export class UserStore {
  constructor(private readonly sql: Sql) {}

  async byId(id: number): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`select * from users where id = ${id}`;
    return row;
  }

  /** The user and its active workspaces ({id, name}, oldest membership first), in one round trip. */
  async withOrganizations(
    id: number,
  ): Promise<(UserRow & { organizations: { id: number; name: string }[] }) | undefined> {
    const [row] = await this.sql<(UserRow & { organizations: { id: number; name: string }[] })[]>`
      select u.*, coalesce((
        select json_agg(json_build_object('id', o.id, 'name', o.name) order by m.id)
        from organization_users m join organizations o on o.id = m.organization_id
        where m.user_id = u.id and m.is_active), '[]'::json) as organizations
      from users u where u.id = ${id}`;
    return row;
  }

  /** By username, or else by email (both compared lower-cased). */
  async byLogin(login: string): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`
      select * from users where username = ${login} or lower(email) = ${login}
      order by (username = ${login}) desc limit 1`;
    return row;
  }

  async byIds(ids: number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.sql<UserRow[]>`select * from users where id = any(${ids}) order by id`;
  }

  async byEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`select * from users where lower(email) = ${email.trim().toLowerCase()}`;
    return row;
  }

  async byUsername(username: string): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`select * from users where username = ${username}`;
    return row;
  }

  async create(user: NewUser): Promise<UserRow> {
    try {
      const [row] = await this.sql<UserRow[]>`
        insert into users (username, email, first_name, last_name, password_hash, is_staff, is_superuser, agreed_terms, agreed_privacy)
        values (${user.username}, ${user.email.trim()}, ${user.first_name}, ${user.last_name}, ${user.password_hash},
                ${user.is_staff ?? false}, ${user.is_superuser ?? false}, '', '')
        returning *`;
      return row!;
    } catch (err) {
      if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) {
        throw problems.invalidFields({ email: ['A user with this email already exists.'] });
      }
      throw err;
    }
  }

  async updateNames(id: number, names: { first_name?: string; last_name?: string }): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`
      update users set
        first_name = coalesce(${names.first_name ?? null}, first_name),
        last_name = coalesce(${names.last_name ?? null}, last_name),
        time_updated = now()
      where id = ${id} returning *`;
    return row;
  }

  async updateSettings(
    id: number,
    s: { agreed_terms?: string; agreed_privacy?: string },
  ): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`
      update users set
        agreed_terms = coalesce(${s.agreed_terms ?? null}, agreed_terms),
        agreed_privacy = coalesce(${s.agreed_privacy ?? null}, agreed_privacy),
        time_updated = now()
      where id = ${id} returning *`;
    return row;
  }

  async setPasswordHash(id: number, hash: string): Promise<void> {
    await this.sql`update users set password_hash = ${hash}, time_updated = now() where id = ${id}`;
  }

  async recordLogin(id: number): Promise<UserRow> {
    const [row] = await this.sql<UserRow[]>`update users set last_login = now() where id = ${id} returning *`;
    return row!;
  }

  async setCurrentOrganization(id: number, organizationId: number): Promise<void> {
    await this.sql`update users set current_organization_id = ${organizationId} where id = ${id}`;
  }

  // Password nonces (reset and set-password links).

  /** A link's nonce; `organizationId` is the workspace whose invitation the link accepts (set-password links). */
  async addNonce(
    userId: number,
    nonceHash: Buffer,
    purpose: 'reset' | 'set',
    expiresAt: Date,
    organizationId: number | null = null,
  ): Promise<void> {
    await this.sql`
      insert into password_nonces (nonce_hash, user_id, purpose, expires_at, organization_id)
      values (${nonceHash}, ${userId}, ${purpose}, ${expiresAt}, ${organizationId})`;
  }

  /**
   * Marks the nonce used if it is the user's, unused and unexpired. Answers undefined when it was not, else the
   * workspace whose invitation it accepts (null for none).
   */
  async consumeNonce(userId: number, nonceHash: Buffer): Promise<{ organization_id: number | null } | undefined> {
    const [row] = await this.sql<{ organization_id: number | null }[]>`
      update password_nonces set used_at = now()
      where nonce_hash = ${nonceHash} and user_id = ${userId} and used_at is null and expires_at > now()
      returning organization_id`;
    return row;
  }

  /** How many `purpose` nonces (links mailed) the user got within the last `seconds`. */
  async recentNonces(userId: number, purpose: 'reset' | 'set', seconds: number): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from password_nonces
      where user_id = ${userId} and purpose = ${purpose} and created_at > now() - make_interval(secs => ${seconds})`;
    return row!.n;
  }

  /** How many invitation requests came for `email` within the last `seconds`. */
  async recentInviteRequests(email: string, seconds: number): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from invite_requests
      where lower(email) = ${email.toLowerCase()} and time_created > now() - make_interval(secs => ${seconds})`;
    return row!.n;
  }

  async addInviteRequest(r: { email: string; name: string; organization: string }): Promise<void> {
    await this
      .sql`insert into invite_requests (email, name, organization) values (${r.email}, ${r.name}, ${r.organization})`;
  }
}
