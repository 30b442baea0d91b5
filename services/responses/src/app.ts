// Wiring only: builds the responses service from its dependencies.
import { auth, forms, projects } from '@fieldwork/proto';
import { createClient, createObjectStore, type BuiltService, type ServiceDeps } from '@fieldwork/service-kit';
import type { ResponsesConfig } from './config.js';
import { startMediaSweeper } from './events/media-sweeper.js';
import { startOutboxRelay } from './events/outbox-relay.js';
import { responsesGrpc } from './grpc/responses.grpc.js';
import { AccessCache } from './service/access.js';
import { CountService } from './service/count.service.js';
import type { ResponsesDeps } from './service/deps.js';
import { MediaService } from './service/media.service.js';
import { PurgeService } from './service/purge.service.js';
import { ReadService } from './service/read.service.js';
import { SchemaCache } from './service/schemas.js';
import { SqlAccessService, type SqlEndpoint } from './service/sql-access.service.js';
import { UploadService } from './service/upload.service.js';
import { ResponseStore } from './store/response.store.js';

export async function buildResponses(config: ResponsesConfig, { sql, log }: ServiceDeps): Promise<BuiltService> {
  // Every call to another service is sealed with the deployment's secret (service-kit call-seal.ts).
  const sealed = { secret: config.CONTEXT_SIGNING_SECRET ?? '' };
  const files = createObjectStore(config);
  await files.ensureReady();
  const relay = startOutboxRelay({
    store: new ResponseStore(sql),
    natsUrl: config.NATS_URL ?? 'nats://127.0.0.1:4222',
    prefix: config.NATS_PREFIX,
    log,
    retentionHours: config.OUTBOX_RETENTION_HOURS,
  });
  const deps: ResponsesDeps = {
    sql,
    log,
    auth: createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR, sealed),
    projects: createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR, sealed),
    forms: createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR, sealed),
    files,
    published: relay.kick,
    linkLimits: {
      responses: config.LINK_MAX_RESPONSES,
      mediaBytes: config.LINK_MAX_MEDIA_BYTES,
      pendingMedia: config.LINK_MAX_PENDING_MEDIA,
    },
  };
  const sweeper = startMediaSweeper({
    store: new ResponseStore(sql),
    files,
    log,
    ttlSeconds: config.MEDIA_PENDING_TTL_S,
    everyMs: config.MEDIA_SWEEP_INTERVAL_S * 1000,
  });
  const access = new AccessCache(deps.projects, config.CONTEXT_SIGNING_SECRET ?? '');
  const schemas = new SchemaCache(deps.forms);
  const sqlAccess = new SqlAccessService(deps, access, schemas, sqlEndpoint(config));
  const services = {
    counts: new CountService(sql),
    uploads: new UploadService(deps, access, schemas),
    reads: new ReadService(deps, access),
    media: new MediaService(deps, access),
    sqlAccess,
    purge: new PurgeService(sql, files, sqlAccess, relay.nats, config.NATS_PREFIX, log),
  };
  return {
    services: [responsesGrpc(services, log)],
    close: async () => {
      await sweeper.stop();
      await relay.stop();
      deps.auth.close();
      deps.projects.close();
      deps.forms.close();
    },
  };
}

/** Where BI tools connect for SQL access: SQL_ACCESS_HOST/PORT when set (the address seen from outside), else DATABASE_URL's. */
function sqlEndpoint(config: ResponsesConfig): SqlEndpoint {
  const url = new URL(config.DATABASE_URL);
  return {
    host: config.SQL_ACCESS_HOST || url.hostname || 'localhost',
    port: config.SQL_ACCESS_PORT || Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
  };
}
