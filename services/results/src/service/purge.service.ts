// A deleted project's purge in the results store (an internal call of the projects service's purge job): its rows
// counted (dry run) or removed. The responses service has already purged the project's stream messages, so nothing
// replays them back.
import type { common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import type { MarkStore } from '../store/marks.store.js';
import type { PurgeStore } from '../store/purge.store.js';

export class PurgeService {
  constructor(
    private readonly store: PurgeStore,
    private readonly marks: MarkStore,
  ) {}

  async purge(req: common.PurgeProjectRequest): Promise<common.PurgeCounts> {
    if (req.project_id <= 0) throw problems.invalidProjectId();
    const before = await this.store.rows(req.project_id);
    const counts = { results_rows: before.responses + before.answers, results_responses: before.responses };
    if (req.dry_run) return { counts, remaining: counts.results_rows };
    if (counts.results_rows > 0 || (await this.store.derivedRows(req.project_id)) > 0) {
      await this.store.remove(req.project_id);
      // The results cache's mark, once the rows are gone: no cached answer of the project outlives them.
      await this.marks.touch([req.project_id]);
    }
    const after = await this.store.rows(req.project_id);
    return { counts, remaining: after.responses + after.answers + (await this.store.derivedRows(req.project_id)) };
  }
}
