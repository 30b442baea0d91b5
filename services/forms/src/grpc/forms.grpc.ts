// FormsService over gRPC: each call goes to one use case.
import { forms } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { SchemaService } from '../service/schema.service.js';
import type { DocumentService } from '../service/document.service.js';

export function formsGrpc(schemas: SchemaService, documents: DocumentService, log: Logger): GrpcServiceRegistration {
  const handlers: AsyncHandlers<forms.FormsServiceServer> = {
    createSchema: (req) => schemas.create(req),
    listSchemas: (req) => schemas.list(req),
    countQuestions: (req) => schemas.countQuestions(req),
    duplicateSchemas: (req) => schemas.duplicate(req),
    deleteSchemas: (req) => schemas.delete(req),
    purgeProject: (req) => schemas.purge(req),
    getSchemaDocument: (req, ctx) => documents.get(req, ctx),
    saveSchemaDocument: (req, ctx) => documents.save(req, ctx),
    listLanguages: () => documents.languages(),
    convertUpload: (req, ctx) => documents.convert(req, ctx),
    exportXlsForm: (req, ctx) => documents.exportXlsForm(req, ctx),
    getSchemaInternal: (req) => documents.getInternal(req),
    listSchemaVersions: (req, ctx) => documents.versions(req, ctx),
    restoreSchemaVersion: (req, ctx) => documents.restore(req, ctx),
    getSchemaProject: (req) => documents.projectOf(req),
  };
  return {
    name: 'fieldwork.forms.v1.FormsService',
    definition: forms.FormsServiceService,
    implementation: implement(forms.FormsServiceService, handlers, log),
  };
}
