// Prometheus metrics (prom-client): one registry per process, served at GET /metrics on METRICS_PORT. gRPC calls are
// counted and timed by `implement` (grpc-server.ts); the rest are set where the work happens: JetStream consumer
// lag, ClickHouse insert batches, outbox backlog, jobs. Names are those of the chart's Grafana dashboard
// (deploy/helm/fieldwork/files/grafana-dashboard.json).
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from './logger.js';

export const registry = new Registry();
let defaultsOn = false;

/** Process metrics (CPU, memory, event loop lag, handles), labelled with the service, once per process. */
export function collectProcessMetrics(service: string): void {
  if (defaultsOn) return;
  defaultsOn = true;
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const metrics = {
  grpcRequests: new Counter({
    name: 'fieldwork_grpc_server_requests_total',
    help: 'gRPC calls handled, by method and status code',
    labelNames: ['method', 'code'],
    registers: [registry],
  }),
  grpcDuration: new Histogram({
    name: 'fieldwork_grpc_server_duration_seconds',
    help: 'gRPC call duration',
    labelNames: ['method'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  }),
  httpRequests: new Counter({
    name: 'fieldwork_http_requests_total',
    help: 'HTTP requests answered by the gateway, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  }),
  httpDuration: new Histogram({
    name: 'fieldwork_http_request_duration_seconds',
    help: 'HTTP request duration at the gateway',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  }),
  jetstreamPending: new Gauge({
    name: 'fieldwork_jetstream_consumer_pending',
    help: 'Messages of a durable consumer not yet delivered (its lag)',
    labelNames: ['stream', 'consumer'],
    registers: [registry],
  }),
  jetstreamAckPending: new Gauge({
    name: 'fieldwork_jetstream_consumer_ack_pending',
    help: 'Messages delivered and not yet acknowledged',
    labelNames: ['stream', 'consumer'],
    registers: [registry],
  }),
  outboxUnpublished: new Gauge({
    name: 'fieldwork_outbox_unpublished',
    help: 'Stored response changes not yet published to NATS',
    registers: [registry],
  }),
  clickhouseInsertRows: new Histogram({
    name: 'fieldwork_clickhouse_insert_rows',
    help: 'Rows per ClickHouse insert batch',
    labelNames: ['table'],
    buckets: [1, 10, 50, 100, 500, 1000, 2500, 5000, 10000, 50000],
    registers: [registry],
  }),
  clickhouseInsertedRows: new Counter({
    name: 'fieldwork_clickhouse_inserted_rows_total',
    help: 'Rows inserted into ClickHouse',
    labelNames: ['table'],
    registers: [registry],
  }),
  jobProgress: new Gauge({
    name: 'fieldwork_job_progress_ratio',
    help: 'Progress of running jobs (0 to 1)',
    labelNames: ['job_id', 'kind'],
    registers: [registry],
  }),
  projectAccess: new Counter({
    name: 'fieldwork_project_access_total',
    help: "A project's access as the service took it: the gateway's grant, or asked of the projects service",
    labelNames: ['source'],
    registers: [registry],
  }),
  jobsFinished: new Counter({
    name: 'fieldwork_jobs_finished_total',
    help: 'Jobs finished, by kind and status',
    labelNames: ['kind', 'status'],
    registers: [registry],
  }),
  jobRows: new Counter({
    name: 'fieldwork_job_rows_total',
    help: 'Rows exported or imported by jobs',
    labelNames: ['kind'],
    registers: [registry],
  }),
};

/** Serves GET /metrics (and nothing else) on its own port, away from the API. */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  service: string;
  log: Logger;
}): Promise<{ port: number; close: () => Promise<void> }> {
  collectProcessMetrics(options.service);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        options.log.warn({ err }, 'metrics failed');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.log.info({ port }, 'metrics listening');
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}
