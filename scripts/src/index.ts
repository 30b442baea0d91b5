// The launcher's code, reused by the test harness.
export * from './harness.js';
export * from './stack.js';
export * from './seed.js';
export * from './processes.js';
export * from './supervise.js';
export * from './infra/postgres.js';
export * from './infra/nats.js';
export * from './infra/net.js';
export * from './demo-data.js';
export * from './ops/backup.js';
export { aptInstall } from './infra/system.js';
