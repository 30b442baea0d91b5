// Response counts for project pages (home, summary by site) and hierarchy checks.
import type { responses } from '@fieldwork/proto';
import type { Sql } from '@fieldwork/service-kit';
import { ResponseStore, type CountRow } from '../store/response.store.js';

const toCount = (r: CountRow | undefined): responses.Count => ({
  total: r?.total ?? 0,
  complete: r?.complete ?? 0,
  last_response: r?.last_response?.toISOString() ?? '',
});

export class CountService {
  private readonly store: ResponseStore;

  constructor(sql: Sql) {
    this.store = new ResponseStore(sql);
  }

  async counts(req: responses.CountResponsesRequest): Promise<responses.ResponseCounts> {
    const [all, bySchema, bySite] = await Promise.all([
      this.store.counts(req.project_id, null),
      this.store.counts(req.project_id, 'schema_id'),
      this.store.counts(req.project_id, 'site_id'),
    ]);
    const keyed = (rows: CountRow[]) => Object.fromEntries(rows.filter((r) => r.key !== null).map((r) => [r.key!, toCount(r)]));
    return {
      all: toCount(all[0]),
      by_schema: keyed(bySchema),
      by_site: keyed(bySite),
      collectors_by_site: Object.fromEntries(bySite.filter((r) => r.key !== null).map((r) => [r.key!, r.collectors])),
    };
  }
}
