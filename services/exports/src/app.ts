// Wiring only: builds the exports service (gRPC handlers and the job workers) from its dependencies; no listening here.
import { auth, forms, projects, responses } from '@fieldwork/proto';
import {
  createClient,
  createObjectStore,
  ensureStream,
  JobEvents,
  type BuiltService,
  type ServiceDeps,
} from '@fieldwork/service-kit';
import type { ExportsConfig } from './config.js';
import { exportsGrpc } from './grpc/exports.grpc.js';
import { ExportService } from './service/export.service.js';
import { PurgeService } from './service/purge.service.js';
import type { ExportsDeps } from './service/deps.js';
import { jobsStream, jobSubject } from './stream.js';
import { ExportWorker } from './worker/worker.js';

export async function buildExports(config: ExportsConfig, { sql, log, nats }: ServiceDeps): Promise<BuiltService> {
  // Every call to another service is sealed with the deployment's secret (service-kit call-seal.ts).
  const sealed = { secret: config.CONTEXT_SIGNING_SECRET ?? '' };
  if (!nats) throw new Error('the exports service needs NATS (the jobs work queue)');
  const stream = jobsStream(config.NATS_PREFIX);
  await ensureStream(nats.jsm, stream);
  const jobEvents = new JobEvents(nats.nc, config.NATS_PREFIX);
  const store = createObjectStore(config);
  await store.ensureReady();
  const deps: ExportsDeps = {
    sql,
    log,
    store,
    auth: createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR, sealed),
    projects: createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR, sealed),
    forms: createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR, sealed),
    responses: createClient(responses.ResponsesServiceClient, config.RESPONSES_GRPC_ADDR, sealed),
    enqueue: async (jobId) =>
      void (await nats.js.publish(jobSubject(config.NATS_PREFIX), jobId, { msgID: `export:${jobId}` })),
    announceFinished: (jobId) => jobEvents.announceFinished(jobId),
    fileTtlHours: config.EXPORT_FILE_TTL_H,
    contextSecret: config.CONTEXT_SIGNING_SECRET ?? '',
  };
  const worker = new ExportWorker(nats, deps, {
    stream: stream.name,
    pageSize: config.EXPORT_PAGE_SIZE,
    pageDelayMs: config.EXPORT_PAGE_DELAY_MS,
    maxAttempts: config.EXPORT_MAX_ATTEMPTS,
    ackWaitS: config.EXPORT_ACK_WAIT_S,
    log,
  });
  await worker.start();
  return {
    services: [exportsGrpc(new ExportService(deps), log, new PurgeService(sql, store, log))],
    close: async () => {
      await worker.stop();
      deps.auth.close();
      deps.projects.close();
      deps.forms.close();
      deps.responses.close();
    },
  };
}
