import { describe, expect, it } from 'vitest';
import { ConversionPool, type ConversionJob } from './conversion-pool.js';
import { FORM_LIMITS } from './form-limits.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {}, child: () => quiet } as never;
const workerFile = new URL('./fixtures/pool-worker.mjs', import.meta.url);
type Options = {
  workers: number;
  queue: number;
  timeoutMs: number;
  heapMb: number;
  startupMs: number;
  workerFile: URL;
};
const pool = (o: Partial<Options> = {}) =>
  new ConversionPool({ workerFile, workers: 1, queue: 0, timeoutMs: 5000, heapMb: 64, log: quiet, ...o });
/** `filename` says what the fixture worker does; `projectType` is how long it waits before answering. */
const job = (filename: string, waitMs = 0): ConversionJob => ({
  filename,
  content: Buffer.from('abc'),
  projectType: String(waitMs),
  limits: FORM_LIMITS,
});

describe(ConversionPool.name, () => {
  it('answers what the worker converted', async () => {
    const p = pool();
    await expect(p.run(job('form.xlsx'))).resolves.toEqual({ format: 'form.xlsx', converted: { questions: 3 } });
    await p.close();
  });

  it('terminates a worker whose loop never yields at its budget (400.12), while this event loop keeps running', async () => {
    const p = pool({ timeoutMs: 400 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const t0 = performance.now();
    await expect(p.run(job('spin'))).rejects.toMatchObject({
      code: '400.12',
      message: expect.stringMatching(/^This form took too long to convert/),
    });
    clearInterval(timer);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(ticks).toBeGreaterThan(5);
    // The pool is free again.
    await expect(p.run(job('after.xlsx'))).resolves.toMatchObject({ format: 'after.xlsx' });
    await p.close();
  });

  it("counts a conversion's budget from when its worker has loaded its modules, not from when it was taken", async () => {
    // Found by CI: on a loaded machine the spare worker was still loading exceljs when a tiny file took it, and the
    // file "took too long to convert". This worker loads for 1.2 s; the budget is 0.6 s.
    const p = pool({ workerFile: new URL('./fixtures/slow-start-worker.mjs', import.meta.url), timeoutMs: 600 });
    await expect(p.run(job('form.xlsx'))).resolves.toEqual({ format: 'form.xlsx', converted: { questions: 3 } });
    await p.close();
  });

  it('fails a conversion (400.14) whose worker never finishes loading, at the start-up bound', async () => {
    const p = pool({ workerFile: new URL('./fixtures/never-ready-worker.mjs', import.meta.url), startupMs: 300 });
    await expect(p.run(job('form.xlsx'))).rejects.toMatchObject({ code: '400.14' });
    await p.close();
  });

  it('stops a worker past its heap cap (400.13) without taking the process with it', async () => {
    const p = pool({ heapMb: 32, timeoutMs: 20_000 });
    await expect(p.run(job('hog'))).rejects.toMatchObject({ code: '400.13' });
    await expect(p.run(job('after.xlsx'))).resolves.toMatchObject({ format: 'after.xlsx' });
    await p.close();
  });

  it("passes the worker's problem on, and turns a failure or an exit into 400.14", async () => {
    const p = pool();
    await expect(p.run(job('problem'))).rejects.toMatchObject({ code: '400.2', message: 'No survey sheet.' });
    await expect(p.run(job('throw'))).rejects.toMatchObject({ code: '400.14' });
    await expect(p.run(job('exit'))).rejects.toMatchObject({ code: '400.14' });
    await p.close();
  });

  it('runs at most `workers` at once, queues at most `queue`, and refuses the rest at once (503.2)', async () => {
    const p = pool({ workers: 2, queue: 1 });
    const running = [p.run(job('a', 300)), p.run(job('b', 300))];
    const queued = p.run(job('c', 0));
    expect(p.load).toEqual({ running: 2, waiting: 1 });
    await expect(p.run(job('d'))).rejects.toMatchObject({ code: '503.2' });
    // At once: refused while both conversions still run and the third still waits (no timing, which load skews).
    expect(p.load).toEqual({ running: 2, waiting: 1 });
    await expect(Promise.all([...running, queued])).resolves.toHaveLength(3);
    expect(p.load).toEqual({ running: 0, waiting: 0 });
    await p.close();
  });

  it('stops a conversion, running or waiting, when its caller gives up', async () => {
    const p = pool({ workers: 1, queue: 1 });
    const running = new AbortController();
    const waiting = new AbortController();
    const first = p.run(job('spin'), running.signal);
    const second = p.run(job('x'), waiting.signal);
    waiting.abort();
    await expect(second).rejects.toMatchObject({ code: '504.1' });
    expect(p.load).toEqual({ running: 1, waiting: 0 });
    running.abort();
    await expect(first).rejects.toMatchObject({ code: '504.1' });
    expect(p.load).toEqual({ running: 0, waiting: 0 });
    await p.close();
  });
});
