// The results service with a cache of whole results payloads in this process, keyed on the request, the caller's
// scope, the schemas and the ingestion watermark read from ClickHouse before each request (docs/results.md, "The
// results cache"). New data changes the watermark, so an entry is never served once newer data is queryable.
import type { results } from '@fieldwork/proto';
import type { CallContext } from '@fieldwork/service-kit';
import { FreshReads, PayloadLru, resultsCacheKey } from '../domain/results-cache.js';
import type { ResultsStore } from '../store/results.store.js';
import type { WatermarkStore } from '../store/watermark.store.js';
import { ResultsService } from './results.service.js';

type Rest = ConstructorParameters<typeof ResultsService> extends [ResultsStore, ...infer R] ? R : never;

export class CachedResultsService extends ResultsService {
  private readonly lru: PayloadLru;
  /** Requests being computed, so that concurrent equal requests run the queries once. */
  private readonly running = new Map<string, Promise<results.ResultsReply>>();
  /** Watermark reads shared by the requests that arrive while one runs (never one begun before a request). */
  private readonly watermark: FreshReads<string>;

  /** `cacheBytes`: the most payload bytes held (RESULTS_CACHE_MB); 0 turns the cache off. */
  constructor(store: ResultsStore, watermarks: WatermarkStore, cacheBytes: number, ...rest: Rest) {
    super(store, ...rest);
    this.lru = new PayloadLru(Math.floor(cacheBytes / 2));
    this.watermark = new FreshReads(() => watermarks.current());
  }

  /** Hits, misses, entries and payload text held. */
  get cacheStats() {
    return { hits: this.lru.hits, misses: this.lru.misses, ...this.lru.stats };
  }

  override async results(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResultsReply> {
    // Same first refusals as the uncached call (not signed in, no access).
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    // Read before the queries: an entry holds data at least as new as its watermark.
    const watermark = await this.watermark.get();
    const { caller: _caller, ...request } = req;
    const key = resultsCacheKey({ request, scope, schemas, watermark });
    const hit = this.lru.get(key);
    if (hit !== undefined) return { payload_json: hit };
    const running = this.running.get(key);
    if (running) return running;
    const computing = super.results(req, ctx);
    this.running.set(key, computing);
    try {
      const reply = await computing;
      this.lru.set(key, reply.payload_json);
      return reply;
    } finally {
      this.running.delete(key);
    }
  }
}
