// ExportsService over gRPC: each call goes to one use case.
import { exports_ } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { ExportService } from '../service/export.service.js';
import type { PurgeService } from '../service/purge.service.js';

export function exportsGrpc(s: ExportService, log: Logger, purge: PurgeService): GrpcServiceRegistration {
  const handlers: AsyncHandlers<exports_.ExportsServiceServer> = {
    createExport: (req, ctx) => s.create(req, ctx),
    getJob: (req, ctx) => s.get(req, ctx),
    cancelJob: (req, ctx) => s.cancel(req, ctx),
    previewImport: (req, ctx) => s.previewImport(req, ctx),
    createImport: (req, ctx) => s.createImport(req, ctx),
    createUsersImport: (req, ctx) => s.createUsersImport(req, ctx),
    purgeProject: (req) => purge.purge(req),
  };
  return {
    name: 'fieldwork.exports.v1.ExportsService',
    definition: exports_.ExportsServiceService,
    implementation: implement(exports_.ExportsServiceService, handlers, log),
  };
}
