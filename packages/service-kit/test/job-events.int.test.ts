// A job's finished event over the real NATS: a waiter answers as soon as the job is announced, reads the job at most
// twice, answers at its deadline when nothing comes, and never misses an end that happened before it listened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra, type TestInfra } from '@fieldwork/launcher';
import { connectNats, createLogger, JobEvents, type Nats } from '../src/index.js';

const log = createLogger('job-events-test', 'silent');
let infra: TestInfra;
let a: Nats;
let b: Nats;

beforeAll(async () => {
  infra = await testInfra();
  a = await connectNats(infra.natsUrl, { name: 'job-events-a', log });
  b = await connectNats(infra.natsUrl, { name: 'job-events-b', log });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await infra?.dispose();
});

describe(JobEvents.name, () => {
  it('answers once the job is announced finished, with two reads', async () => {
    const waiter = new JobEvents(a.nc, infra.natsPrefix);
    const worker = new JobEvents(b.nc, infra.natsPrefix);
    let status = 'running';
    let reads = 0;
    const read = async () => {
      reads++;
      return status;
    };
    const t0 = Date.now();
    const settled = waiter.settle('job-1', 10_000, read, (s) => s === 'done');
    setTimeout(() => {
      status = 'done';
      worker.announceFinished('job-1');
    }, 300);
    expect(await settled).toBe('done');
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(reads).toBe(2);
  });

  it('reads once when the job has already finished, and answers at the deadline when no event comes', async () => {
    const waiter = new JobEvents(a.nc, infra.natsPrefix);
    let reads = 0;
    expect(await waiter.settle('job-2', 10_000, async () => (reads++, 'done'), (s) => s === 'done')).toBe('done');
    expect(reads).toBe(1);
    const t0 = Date.now();
    expect(await waiter.settle('job-3', 500, async () => 'running', (s) => s === 'done')).toBe('running');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    // Another job's event does not end the wait.
    const t1 = Date.now();
    const other = waiter.settle('job-4', 800, async () => 'running', (s) => s === 'done');
    new JobEvents(b.nc, infra.natsPrefix).announceFinished('job-5');
    expect(await other).toBe('running');
    expect(Date.now() - t1).toBeGreaterThanOrEqual(750);
  });
});
