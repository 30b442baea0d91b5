// Response counts of a project from ClickHouse, for the project home and the summary by site (spec 000 §7): the
// same figures the responses service counts in PostgreSQL, read where they stay fast at millions of responses.
import type { responses, results } from '@fieldwork/proto';
import type { CountRow, CountStore } from '../store/count.store.js';

const iso = (t: string | null | undefined) => (t ? `${t.replace(' ', 'T')}Z` : '');

export class CountService {
  constructor(private readonly store: CountStore) {}

  async counts(req: responses.CountResponsesRequest): Promise<responses.ResponseCounts> {
    const rows = await this.store.countsBySchemaAndSite(req.project_id);
    type Acc = { total: number; complete: number; last: string; users: Set<string> };
    const add = (m: Map<number, Acc>, key: number, r: CountRow & { users: string[] }) => {
      const a = m.get(key) ?? { total: 0, complete: 0, last: '', users: new Set<string>() };
      a.total += Number(r.total);
      a.complete += Number(r.complete);
      const last = iso(r.last);
      if (last > a.last) a.last = last;
      for (const u of r.users) a.users.add(u);
      m.set(key, a);
    };
    const all = new Map<number, Acc>();
    const bySchema = new Map<number, Acc>();
    const bySite = new Map<number, Acc>();
    for (const r of rows) {
      add(all, 0, r);
      add(bySchema, Number(r.schema_id), r);
      add(bySite, Number(r.site_id), r);
    }
    const count = (a: Acc | undefined): responses.Count => ({
      total: a?.total ?? 0,
      complete: a?.complete ?? 0,
      last_response: a?.last ?? '',
    });
    const keyed = (m: Map<number, Acc>) => Object.fromEntries([...m].map(([k, a]) => [k, count(a)]));
    return {
      all: count(all.get(0)),
      by_schema: keyed(bySchema),
      by_site: keyed(bySite),
      collectors_by_site: Object.fromEntries([...bySite].map(([k, a]) => [k, a.users.size])),
    };
  }

  /** The cards of the projects page: each project's counts in one query (a project without responses: zeros). */
  async countProjects(req: results.CountProjectsRequest): Promise<results.ProjectCounts> {
    const ids = [...new Set(req.project_ids)].filter((id) => id > 0);
    const rows = await this.store.countsByProject(ids);
    const byProject: results.ProjectCounts['by_project'] = {};
    for (const id of ids) byProject[id] = { total: 0, complete: 0, last_response: '' };
    for (const r of rows)
      byProject[Number(r.project_id)] = {
        total: Number(r.total),
        complete: Number(r.complete),
        last_response: iso(r.last),
      };
    return { by_project: byProject };
  }
}
