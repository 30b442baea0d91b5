// ResultsService over gRPC: each call goes to one use case.
import { results } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { CountService } from '../service/count.service.js';
import type { IngestService } from '../service/ingest.service.js';
import type { PurgeService } from '../service/purge.service.js';
import type { ResultsService } from '../service/results.service.js';
import type { ViewsService } from '../service/views.service.js';

export function resultsGrpc(
  s: { ingest: IngestService; results: ResultsService; counts: CountService; purge: PurgeService; views: ViewsService },
  log: Logger,
): GrpcServiceRegistration {
  const handlers: AsyncHandlers<results.ResultsServiceServer> = {
    ingestStatus: (req) => s.ingest.status(req),
    rebuild: () => s.ingest.rebuild(),
    setTimeZone: (req) => s.ingest.setTimeZone(req),
    getResults: (req, ctx) => s.results.results(req, ctx),
    responseIds: (req, ctx) => s.results.responseIds(req, ctx),
    advancedResults: (req, ctx) => s.results.advancedResults(req, ctx),
    countResponses: (req) => s.counts.counts(req),
    lookups: (req, ctx) => s.results.lookups(req, ctx),
    countProjects: (req) => s.counts.countProjects(req),
    purgeProject: (req) => s.purge.purge(req),
    // The summary shows the advanced results flagged for it, computed by the advanced results use case.
    summary: (req, ctx) => s.views.summary(req, ctx, (r, c) => s.results.advancedResults(r, c)),
    performance: (req, ctx) => s.views.performance(req, ctx),
    tracking: (req, ctx) => s.views.tracking(req, ctx),
    collectors: (req, ctx) => s.views.collectors(req, ctx),
  };
  return {
    name: 'fieldwork.results.v1.ResultsService',
    definition: results.ResultsServiceService,
    implementation: implement(results.ResultsServiceService, handlers, log),
  };
}
