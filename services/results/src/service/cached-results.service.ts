// The results service with a cache of whole results payloads in this process, keyed on the request, the caller's
// scope, the schemas and the project's mark read from ClickHouse before each request (docs/results.md, "The results
// cache"). A write to a project's results adds to its mark once its data is written, so an entry is never served
// once newer data of its project is marked; writes to other projects leave it alone.
import type { results } from '@fieldwork/proto';
import type { CallContext } from '@fieldwork/service-kit';
import { KeyedFreshReads, PayloadLru, resultsCacheKey } from '../domain/results-cache.js';
import type { MarkStore, ProjectMark } from '../store/marks.store.js';
import type { ResultsStore } from '../store/results.store.js';
import { ResultsService } from './results.service.js';

type Rest = ConstructorParameters<typeof ResultsService> extends [ResultsStore, ...infer R] ? R : never;

export class CachedResultsService extends ResultsService {
  private readonly lru: PayloadLru;
  /** Requests being computed, so that concurrent equal requests run the queries once. */
  private readonly running = new Map<string, Promise<results.ResultsReply>>();
  /** Mark reads per project, shared by the requests that arrive while one runs (never one begun before a request). */
  private readonly marks: KeyedFreshReads<number, ProjectMark>;
  /** Answers computed and not kept: a node of the cluster was still receiving data (ProjectMark.settled). */
  private unsettled = 0;

  /** `cacheBytes`: the most payload bytes held (RESULTS_CACHE_MB); 0 turns the cache off. */
  constructor(store: ResultsStore, marks: Pick<MarkStore, 'read'>, cacheBytes: number, ...rest: Rest) {
    super(store, ...rest);
    this.lru = new PayloadLru(Math.floor(cacheBytes / 2));
    this.marks = new KeyedFreshReads((projectId) => marks.read(projectId));
  }

  /** Hits, misses, answers not kept while a cluster node was catching up, entries and payload text held. */
  get cacheStats() {
    return { hits: this.lru.hits, misses: this.lru.misses, unsettled: this.unsettled, ...this.lru.stats };
  }

  override async results(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResultsReply> {
    // Same first refusals as the uncached call (not signed in, no access).
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    // Read before the queries: an entry holds data at least as new as its mark.
    const mark = await this.marks.get(req.project_id);
    const { caller: _caller, ...request } = req;
    const key = resultsCacheKey({ request, scope, schemas, mark: mark.key });
    const hit = this.lru.get(key);
    if (hit !== undefined) return { payload_json: hit };
    // An answer computed while a node was still receiving data may miss rows its mark already counts: it is neither
    // kept nor shared with a request that would keep it.
    const runKey = mark.settled ? key : `${key}:unsettled`;
    const running = this.running.get(runKey);
    if (running) return running;
    const computing = super.results(req, ctx);
    this.running.set(runKey, computing);
    try {
      const reply = await computing;
      if (mark.settled) this.lru.set(key, reply.payload_json);
      else this.unsettled++;
      return reply;
    } finally {
      this.running.delete(runKey);
    }
  }
}
