// Wiring only: builds the forms service (schemas, documents, the conversion pool) from its dependencies; no listening here.
import { availableParallelism } from 'node:os';
import { projects, responses } from '@fieldwork/proto';
import { createClient, createObjectStore, type BuiltService, type ServiceDeps } from '@fieldwork/service-kit';
import type { FormsConfig } from './config.js';
import { ConversionPool } from './convert/conversion-pool.js';
import { FORM_LIMITS } from './convert/form-limits.js';
import { formsGrpc } from './grpc/forms.grpc.js';
import { DocumentService } from './service/document.service.js';
import { SchemaService } from './service/schema.service.js';

export async function buildForms(config: FormsConfig, { sql, log }: ServiceDeps): Promise<BuiltService> {
  // Every call to another service is sealed with the deployment's secret (service-kit call-seal.ts).
  const sealed = { secret: config.CONTEXT_SIGNING_SECRET ?? '' };
  const projectsClient = createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR, sealed);
  // Whether a form has responses before it is replaced.
  const responsesClient = createClient(responses.ResponsesServiceClient, config.RESPONSES_GRPC_ADDR, sealed);
  const files = createObjectStore(config);
  const conversions = new ConversionPool({
    workerFile: new URL('./convert/conversion.worker.js', import.meta.url),
    // One core stays with the event loop (health checks, form loads and saves).
    workers: config.FORMS_CONVERT_WORKERS || Math.max(1, Math.min(4, availableParallelism() - 1)),
    queue: config.FORMS_CONVERT_QUEUE,
    ...(config.FORMS_CONVERT_WORKSPACE_WORKERS > 0 ? { workspaceWorkers: config.FORMS_CONVERT_WORKSPACE_WORKERS } : {}),
    timeoutMs: config.FORMS_CONVERT_TIMEOUT_MS,
    heapMb: config.FORMS_CONVERT_HEAP_MB,
    log: log.child({ component: 'conversions' }),
  });
  const documents = new DocumentService(
    sql,
    projectsClient,
    files,
    log,
    conversions,
    {
      maxFileBytes: config.FORMS_MAX_FILE_BYTES,
      limits: { ...FORM_LIMITS, rows: config.FORMS_MAX_SHEET_ROWS },
    },
    responsesClient,
    config.CONTEXT_SIGNING_SECRET ?? '',
  );
  return {
    services: [formsGrpc(new SchemaService(sql), documents, log)],
    close: async () => {
      await conversions.close();
      projectsClient.close();
      responsesClient.close();
    },
  };
}
