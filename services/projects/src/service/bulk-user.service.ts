// Bulk add of project users from a parsed list or an uploaded CSV (the columns of bulk_user_template.csv), each row
// on its own: a bad row is reported with why, the others are added.
import { parse } from 'csv-parse/sync';
import type { projects } from '@fieldwork/proto';
import { isProblem, problems } from '@fieldwork/service-kit';
import { BULK_MAX_ROWS, BULK_TEMPLATE_HEADER, rolesFromNames } from '../domain/roles.js';
import { StructureStore } from '../store/structure.store.js';
import { AccessResolver, type ProjectAccess } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';
import type { ProjectUserService } from './project-user.service.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class BulkUserService {
  private readonly structure: StructureStore;

  constructor(
    private readonly deps: ProjectsDeps,
    private readonly access: AccessResolver,
    private readonly users: ProjectUserService,
  ) {
    this.structure = new StructureStore(deps.sql);
  }

  async addList(req: projects.BulkAddProjectUsersRequest, ctx: Ctx): Promise<projects.BulkReport> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'admins', 'staff');
    return this.addRows(a, req.rows, ctx);
  }

  async upload(req: projects.BulkUploadProjectUsersRequest, ctx: Ctx): Promise<projects.BulkReport> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'admins', 'staff');
    let records: Record<string, string>[];
    try {
      records = parse(req.content, {
        columns: (header: string[]) => header.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_')),
        bom: true,
        skip_empty_lines: true,
        trim: true,
        relax_column_count: true,
        to: BULK_MAX_ROWS + 1,
      }) as Record<string, string>[];
    } catch (err) {
      throw problems.invalid(`The file is not a readable CSV: ${(err as Error).message.split('\n')[0]}`);
    }
    if (records.length === 0)
      throw problems.invalid(
        `The file has no rows. Use the columns of bulk_user_template.csv: ${BULK_TEMPLATE_HEADER.join(', ')}.`,
      );
    if (!('email' in records[0]!))
      throw problems.invalid(
        `The file needs an email column (bulk_user_template.csv: ${BULK_TEMPLATE_HEADER.join(', ')}).`,
      );
    return this.addRows(
      a,
      records.map((r) => ({
        email: r.email ?? '',
        first_name: r.first_name ?? '',
        last_name: r.last_name ?? '',
        role: r.role ?? '',
        site: r.site ?? '',
        group: r.group ?? '',
        team: r.team ?? '',
        password: r.password ?? '',
      })),
      ctx,
    );
  }

  private async addRows(a: ProjectAccess, rows: projects.BulkUserRow[], ctx: Ctx): Promise<projects.BulkReport> {
    if (rows.length > BULK_MAX_ROWS) throw problems.invalid(`At most ${BULK_MAX_ROWS} users can be added at once.`);
    const [sites, groups, teams] = await Promise.all([
      this.structure.sites(a.project.id),
      this.structure.groups(a.project.id),
      this.structure.teams(a.project.id),
    ]);
    const find = <T extends { id: number; name: string }>(list: T[], ref: string) =>
      list.find((x) => String(x.id) === ref || x.name.toLowerCase() === ref.toLowerCase());
    const report: projects.BulkReport = { added: 0, updated: 0, failed: 0, rows: [] };
    for (const [i, row] of rows.entries()) {
      const errors: string[] = [];
      const email = row.email.trim();
      if (!EMAIL.test(email)) errors.push(`"${email}": Enter a valid email address.`);
      const { roles, unknown } = rolesFromNames(row.role.split(/[;|]/));
      if (unknown.length > 0) errors.push(`Unknown role: ${unknown.join(', ')}.`);
      const site = row.site.trim() ? find(sites, row.site.trim()) : undefined;
      const group = row.group.trim() ? find(groups, row.group.trim()) : undefined;
      const team = row.team.trim() ? find(teams, row.team.trim()) : undefined;
      if (row.site.trim() && !site) errors.push(`No site "${row.site.trim()}" in this project.`);
      if (row.group.trim() && !group) errors.push(`No group "${row.group.trim()}" in this project.`);
      if (row.team.trim() && !team) errors.push(`No team "${row.team.trim()}" in this project.`);
      if (errors.length === 0) {
        try {
          const added = await this.users.add(
            {
              caller: a.caller,
              project_id: a.project.id,
              email,
              first_name: row.first_name.trim(),
              last_name: row.last_name.trim(),
              password: row.password.trim(),
              roles,
              site: site?.id ?? 0,
              group: group?.id ?? 0,
              team: team?.id ?? 0,
              read_sites: [],
              user_id: 0,
            },
            ctx,
          );
          report.added++;
          report.rows.push({ row: i + 1, email, status: 'added', errors: [], user_id: added.user_id });
          continue;
        } catch (err) {
          if (!isProblem(err)) throw err;
          errors.push(
            ...(err.fields ? Object.entries(err.fields).map(([f, m]) => `${f}: ${m.join(' ')}`) : [err.message]),
          );
        }
      }
      report.failed++;
      report.rows.push({ row: i + 1, email, status: 'failed', errors, user_id: 0 });
    }
    this.deps.log.info({ projectId: a.project.id, added: report.added, failed: report.failed }, 'bulk users added');
    return report;
  }
}
