// The exports service process: config, build, listen, signals.
import { auth, forms, projects, responses } from '@fieldwork/proto';
import { createClient, createObjectStore, ensureStream, runMain, startService } from '@fieldwork/service-kit';
import { loadExportsConfig } from './config.js';
import { exportsGrpc } from './grpc/exports.grpc.js';
import { ExportService } from './service/export.service.js';
import type { ExportsDeps } from './service/deps.js';
import { jobsStream, jobSubject } from './stream.js';
import { ExportWorker } from './worker/worker.js';

runMain(async () => {
  const config = loadExportsConfig();
  return startService({
    name: 'exports',
    config,
    grpcPort: config.EXPORTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    nats: true,
    build: async ({ log, nats, sql }) => {
      const stream = jobsStream(config.NATS_PREFIX);
      await ensureStream(nats!.jsm, stream);
      const store = createObjectStore(config);
      await store.ensureReady();
      const deps: ExportsDeps = {
        sql,
        log,
        store,
        auth: createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR),
        projects: createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR),
        forms: createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR),
        responses: createClient(responses.ResponsesServiceClient, config.RESPONSES_GRPC_ADDR),
        enqueue: async (jobId) => void (await nats!.js.publish(jobSubject(config.NATS_PREFIX), jobId, { msgID: `export:${jobId}` })),
        fileTtlHours: config.EXPORT_FILE_TTL_H,
        contextSecret: config.CONTEXT_SIGNING_SECRET ?? '',
      };
      const worker = new ExportWorker(nats!, deps, { stream: stream.name, pageSize: config.EXPORT_PAGE_SIZE, pageDelayMs: config.EXPORT_PAGE_DELAY_MS, maxAttempts: config.EXPORT_MAX_ATTEMPTS, ackWaitS: config.EXPORT_ACK_WAIT_S, log });
      await worker.start();
      return {
        services: [exportsGrpc(new ExportService(deps), log)],
        close: async () => {
          await worker.stop();
          deps.auth.close();
          deps.projects.close();
          deps.forms.close();
          deps.responses.close();
        },
      };
    },
  });
});
