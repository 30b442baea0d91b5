// ResponsesService over gRPC: each call goes to one use case.
import { responses } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { CountService } from '../service/count.service.js';
import type { MediaService } from '../service/media.service.js';
import type { PurgeService } from '../service/purge.service.js';
import type { ReadService } from '../service/read.service.js';
import type { SqlAccessService } from '../service/sql-access.service.js';
import type { UploadService } from '../service/upload.service.js';

export function responsesGrpc(
  s: {
    counts: CountService;
    uploads: UploadService;
    reads: ReadService;
    media: MediaService;
    sqlAccess: SqlAccessService;
    purge: PurgeService;
  },
  log: Logger,
): GrpcServiceRegistration {
  const handlers: AsyncHandlers<responses.ResponsesServiceServer> = {
    countResponses: (req) => s.counts.counts(req),
    exportPage: (req) => s.counts.exportPage(req),
    upload: (req, ctx) => s.uploads.upload(req, ctx),
    importBatch: (req, ctx) => s.uploads.importBatch(req, ctx),
    enableSqlAccess: (req, ctx) => s.sqlAccess.enable(req, ctx),
    disableSqlAccess: (req, ctx) => s.sqlAccess.disable(req, ctx),
    list: (req, ctx) => s.reads.list(req, ctx),
    filter: (req, ctx) => s.reads.filter(req, ctx),
    getOne: (req, ctx) => s.reads.getOne(req, ctx),
    emailOpen: (req, ctx) => s.reads.emailOpen(req, ctx),
    referenceResponses: (req, ctx) => s.reads.referenceResponses(req, ctx),
    lookup: (req, ctx) => s.reads.lookup(req, ctx),
    createMediaUpload: (req, ctx) => s.media.create(req, ctx),
    completeMediaUpload: (req, ctx) => s.media.complete(req, ctx),
    purgeProject: (req) => s.purge.purge(req),
  };
  return {
    name: 'fieldwork.responses.v1.ResponsesService',
    definition: responses.ResponsesServiceService,
    implementation: implement(responses.ResponsesServiceService, handlers, log),
  };
}
