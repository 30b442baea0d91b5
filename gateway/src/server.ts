// The gateway process: config, clients, build, listen; close-with-grace on signals.
import closeWithGrace from 'close-with-grace';
import {
  ConfigError,
  connectNats,
  createObjectStore,
  FsObjectStore,
  createLogger,
  JobEvents,
  RevocationList,
  startMetricsServer,
} from '@fieldwork/service-kit';
import { buildGateway } from './app.js';
import { connectClients } from './clients.js';
import { loadGatewayConfig } from './config.js';

async function main() {
  const config = loadGatewayConfig();
  const log = createLogger('gateway', config.LOG_LEVEL);
  const clients = connectClients(
    {
      auth: config.AUTH_GRPC_ADDR,
      projects: config.PROJECTS_GRPC_ADDR,
      forms: config.FORMS_GRPC_ADDR,
      responses: config.RESPONSES_GRPC_ADDR,
      results: config.RESULTS_GRPC_ADDR,
      exports: config.EXPORTS_GRPC_ADDR,
    },
    config.GRPC_TIMEOUT_MS,
    config.CONTEXT_SIGNING_SECRET ?? '',
  );
  // Every access token, API key and share link is checked against the revocation list: serve only once it is loaded.
  const nats = await connectNats(config.NATS_URL, { name: 'fieldwork-gateway', log });
  const revocations = await RevocationList.watch(nats.nc, config.NATS_PREFIX, log.child({ component: 'revocations' }));
  // Project uploads stream here (the fs store signs no URL for the gateway, so its secret may be empty).
  const objects =
    config.OBJECT_STORE === 's3'
      ? createObjectStore(config)
      : new FsObjectStore({
          root: config.OBJECT_STORE_DIR,
          publicBaseUrl: config.PUBLIC_URL,
          signingSecret: config.OBJECT_STORE_SIGNING_SECRET,
        });
  const app = await buildGateway({
    clients,
    log,
    revocations,
    objects,
    jobEvents: new JobEvents(nats.nc, config.NATS_PREFIX),
    nats: { nc: nats.nc, prefix: config.NATS_PREFIX },
    options: {
      jwtSecret: config.JWT_SECRET,
      ...(config.CONTEXT_SIGNING_SECRET ? { contextSecret: config.CONTEXT_SIGNING_SECRET } : {}),
      apiKeyCacheMs: config.API_KEY_CACHE_S * 1000,
      itemShareTtlSeconds: config.ITEM_SHARE_TTL_DAYS * 86_400,
      ...(config.OBJECT_STORE === 'fs' && config.OBJECT_STORE_SIGNING_SECRET !== ''
        ? { files: { dir: config.OBJECT_STORE_DIR, secret: config.OBJECT_STORE_SIGNING_SECRET } }
        : {}),
      bodyLimit: config.BODY_LIMIT_BYTES,
      corsOrigins: config.CORS_ORIGINS,
      mapTileOrigins: config.MAP_TILE_ORIGINS,
      webDir: config.WEB_DIR,
      legalDir: config.LEGAL_DIR,
      tls: config.TLS_TERMINATED,
      trustedProxies: config.TRUSTED_PROXIES,
      rateLimits: {
        login: config.RATE_LIMIT_LOGIN_PER_MIN,
        lookup: config.RATE_LIMIT_LOOKUP_PER_MIN,
        mail: config.RATE_LIMIT_MAIL_PER_MIN,
        reports: config.RATE_LIMIT_REPORTS_PER_MIN,
        linkUploads: config.RATE_LIMIT_LINK_UPLOADS_PER_10S,
        addressUploads: config.RATE_LIMIT_ADDRESS_UPLOADS_PER_10S,
        linkOpens: config.RATE_LIMIT_LINK_OPENS_PER_10S,
        addressOpens: config.RATE_LIMIT_ADDRESS_OPENS_PER_10S,
        people: config.RATE_LIMIT_PEOPLE_PER_MIN,
      },
    },
  });
  const metricsServer =
    config.METRICS_PORT > 0
      ? await startMetricsServer({ port: config.METRICS_PORT, host: config.GATEWAY_HOST, service: 'gateway', log })
      : undefined;
  closeWithGrace({ delay: config.SHUTDOWN_TIMEOUT_S * 1000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'closing after an error');
    else log.info({ signal }, 'shutting down');
    await app.close();
    revocations.stop();
    await nats.close();
    clients.close();
    await metricsServer?.close();
  });
  if (config.EXIT_WITH_PARENT) {
    // Started by the launcher: stop when its pipe closes (the launcher died or stopped us).
    process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'));
    process.stdin.resume();
  }
  await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error('start-up failed:', err);
  process.exit(1);
});
