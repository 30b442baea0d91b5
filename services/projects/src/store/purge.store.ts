// All SQL of deleted projects' purges: the purge records, the job's lease, and what the projects service itself
// holds of a project (its row, and with it by cascade its sites, groups, teams, users, links, files, advanced results).
import type { Sql } from '@fieldwork/service-kit';

export interface PurgeRow {
  project_id: number;
  organization_id: number;
  name: string;
  requested_by: number;
  state: 'running' | 'done' | 'failed';
  counts: Record<string, number>;
  removed: Record<string, number>;
  attempts: number;
  error: string;
  lease_until: Date | null;
  requested_at: Date;
  finished_at: Date | null;
}

export class PurgeStore {
  constructor(private readonly sql: Sql) {}

  async get(projectId: number): Promise<PurgeRow | undefined> {
    const [row] = await this.sql<PurgeRow[]>`select * from project_purges where project_id = ${projectId}`;
    return row;
  }

  /** Records the purge asked (or asks again one that failed); a running or done one stays as it is. */
  async start(
    p: Pick<PurgeRow, 'project_id' | 'organization_id' | 'name' | 'requested_by' | 'counts'>,
  ): Promise<PurgeRow> {
    const [row] = await this.sql<PurgeRow[]>`
      insert into project_purges (project_id, organization_id, name, requested_by, counts)
      values (${p.project_id}, ${p.organization_id}, ${p.name}, ${p.requested_by}, ${this.sql.json(p.counts)})
      on conflict (project_id) do update set state = 'running', attempts = 0, error = '', lease_until = null,
        requested_by = excluded.requested_by, requested_at = now()
        where project_purges.state = 'failed'
      returning *`;
    return row ?? (await this.get(p.project_id))!;
  }

  /** Takes a running purge nobody holds (or whose holder's lease ran out) for `leaseSeconds`. */
  async claim(leaseSeconds: number): Promise<PurgeRow | undefined> {
    const [row] = await this.sql<PurgeRow[]>`
      update project_purges set lease_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
      where project_id = (
        select project_id from project_purges
        where state = 'running' and (lease_until is null or lease_until < now())
        order by requested_at limit 1 for update skip locked)
      returning *`;
    return row;
  }

  async renew(projectId: number, leaseSeconds: number): Promise<void> {
    await this.sql`
      update project_purges set lease_until = now() + make_interval(secs => ${leaseSeconds}) where project_id = ${projectId}`;
  }

  /** Adds what a batch removed to the purge's totals. */
  async addRemoved(projectId: number, counts: Record<string, number>): Promise<void> {
    await this.sql`
      update project_purges set removed = (
        select coalesce(jsonb_object_agg(k, coalesce((removed ->> k)::bigint, 0) + coalesce((${this.sql.json(counts)}::jsonb ->> k)::bigint, 0)), '{}')
        from (select jsonb_object_keys(removed) as k union select jsonb_object_keys(${this.sql.json(counts)}::jsonb)) keys)
      where project_id = ${projectId}`;
  }

  async finish(projectId: number): Promise<PurgeRow> {
    const [row] = await this.sql<PurgeRow[]>`
      update project_purges set state = 'done', finished_at = now(), lease_until = null, error = ''
      where project_id = ${projectId} returning *`;
    return row!;
  }

  /** A failed attempt: tried again after the lease, or failed for good after `maxAttempts`. */
  async failed(projectId: number, error: string, maxAttempts: number, retryAfterSeconds: number): Promise<PurgeRow> {
    const [row] = await this.sql<PurgeRow[]>`
      update project_purges set error = ${error.slice(0, 500)},
        state = case when attempts >= ${maxAttempts} then 'failed' else state end,
        finished_at = case when attempts >= ${maxAttempts} then now() else finished_at end,
        lease_until = now() + make_interval(secs => ${retryAfterSeconds})
      where project_id = ${projectId} returning *`;
    return row!;
  }

  /** The workspace's deleted projects (state D), newest change first. */
  async deletedOf(organizationId: number): Promise<{ id: number; name: string }[]> {
    return this.sql<{ id: number; name: string }[]>`
      select id, name from projects where organization_id = ${organizationId} and project_state = 'D'
      order by time_updated desc, id desc limit 1000`;
  }

  /** The workspace's purges, the latest asked first. */
  async ofOrganization(organizationId: number): Promise<PurgeRow[]> {
    return this.sql<PurgeRow[]>`
      select * from project_purges where organization_id = ${organizationId} order by requested_at desc limit 1000`;
  }

  /** What the projects service holds of the project, by kind. */
  async own(projectId: number): Promise<Record<string, number>> {
    const [r] = await this.sql<Record<string, number>[]>`
      select (select count(*) from projects where id = ${projectId})::int as projects,
             (select count(*) from sites where project_id = ${projectId})::int as sites,
             (select count(*) from groups where project_id = ${projectId})::int as groups,
             (select count(*) from teams where project_id = ${projectId})::int as teams,
             (select count(*) from project_users where project_id = ${projectId})::int as project_users,
             (select count(*) from surveys where project_id = ${projectId})::int as collection_links,
             (select count(*) from advanced_results where project_id = ${projectId})::int as advanced_results,
             (select count(*) from project_files where project_id = ${projectId})::int as project_files`;
    return r!;
  }

  /** Is this logo key used by a project other than `projectId` (a duplicate shares its source's logo)? */
  async logoShared(key: string, projectId: number): Promise<boolean> {
    const [r] = await this.sql`select 1 from projects where logo = ${key} and id <> ${projectId} limit 1`;
    return r !== undefined;
  }

  /**
   * Removes the project row (its sites, groups, teams, project users, links, files rows and advanced results go with
   * it: on delete cascade), its logo's file row, and the references other projects held to it.
   */
  async removeProject(projectId: number, logoKey: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`update projects set reference_ids = array_remove(reference_ids, ${projectId}::bigint) where ${projectId}::bigint = any(reference_ids)`;
      if (logoKey !== '') await tx`delete from project_files where object_key = ${logoKey} and purpose = 'logo'`;
      await tx`delete from projects where id = ${projectId}`;
    });
  }
}
