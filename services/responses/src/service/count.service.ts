// Response counts for project pages (home, summary by site) and hierarchy checks; pages of responses for exports.
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

  /** A page of live responses for an export job, after the cursor. */
  async exportPage(req: responses.ExportPageRequest): Promise<responses.ExportPageReply> {
    const limit = req.limit > 0 ? Math.min(req.limit, 10_000) : 5_000;
    const rows = await this.store.exportPage(req.project_id, req.schema_id, req.after_id, limit, req.profile);
    const out = rows.map((r): responses.ExportRow => ({
      response_id: r.response_id,
      schema_id: r.schema_id,
      parent_id: r.parent_id ?? undefined,
      user_id: r.user_id ?? 0,
      site_id: r.site_id ?? undefined,
      group_id: r.group_id ?? undefined,
      team_id: r.team_id ?? undefined,
      device_id: r.device_id,
      completed: r.completed,
      time_created: r.time_created,
      time_updated: r.time_updated,
      time_completed: r.time_completed ?? undefined,
      time_uploaded: r.time_uploaded,
      geotag: (r.geotag ?? undefined) as responses.ExportRow['geotag'],
      data_json: r.data_json,
    }));
    const repeats =
      req.with_repeats && req.after_id === 0
        ? Object.fromEntries(await this.store.exportRepeats(req.project_id, req.schema_id, req.profile))
        : {};
    return { rows: out, last_id: rows.length === limit ? rows.at(-1)!.id : 0, repeats };
  }

  async counts(req: responses.CountResponsesRequest): Promise<responses.ResponseCounts> {
    const [all, bySchema, bySite] = await Promise.all([
      this.store.counts(req.project_id, null),
      this.store.counts(req.project_id, 'schema_id'),
      this.store.counts(req.project_id, 'site_id'),
    ]);
    const keyed = (rows: CountRow[]) =>
      Object.fromEntries(rows.filter((r) => r.key !== null).map((r) => [r.key!, toCount(r)]));
    return {
      all: toCount(all[0]),
      by_schema: keyed(bySchema),
      by_site: keyed(bySite),
      collectors_by_site: Object.fromEntries(bySite.filter((r) => r.key !== null).map((r) => [r.key!, r.collectors])),
    };
  }
}
