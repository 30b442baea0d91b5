import { describe, expect, it } from 'vitest';
import { ConversionPool, type ConversionJob } from './conversion-pool.js';
import { FORM_LIMITS } from './form-limits.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {}, child: () => quiet } as never;
const workerFile = new URL('./fixtures/pool-worker.mjs', import.meta.url);
type Options = {
  workers: number;
  queue: number;
  workspaceWorkers: number;
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
    const p = pool({ workers: 2, queue: 1, workspaceWorkers: 2 });
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

  it('leaves a worker to other workspaces and gives freed workers to the workspaces in turn', async () => {
    const p = pool({ workers: 2, queue: 4 });
    const order: string[] = [];
    const run = (w: string, name: string, waitMs: number) =>
      p.run(job(name, waitMs), undefined, w).then((r) => (order.push(name), r));
    // A floods: one runs (its share of two workers), three wait; B's runs at once on the other worker.
    const a = [run('A', 'a1', 300), run('A', 'a2', 0), run('A', 'a3', 0), run('A', 'a4', 0)];
    expect(p.load).toEqual({ running: 1, waiting: 3 });
    const b1 = run('B', 'b1', 300);
    expect(p.load).toEqual({ running: 2, waiting: 3 });
    // B's next waits for its own, and goes before A's next two once a worker is free in turn.
    const b2 = run('B', 'b2', 0);
    await Promise.all([...a, b1, b2]);
    expect(order.indexOf('b2')).toBeLessThan(order.indexOf('a3'));
    expect(p.load).toEqual({ running: 0, waiting: 0 });
    await p.close();
  });

  it('refuses a workspace alone past the queue (503.2), and past its share while others convert (429.3), its newest waiting one too', async () => {
    const p = pool({ workers: 1, queue: 2 });
    const run = (w: string, name: string, waitMs = 0) => p.run(job(name, waitMs), undefined, w);
    const a1 = run('A', 'a1', 300);
    const a2 = run('A', 'a2');
    const a3 = run('A', 'a3');
    await expect(run('A', 'a4')).rejects.toMatchObject({ code: '503.2' });
    // B arrives at a full queue: A's newest waiting one gives its place up.
    const b1 = run('B', 'b1');
    await expect(a3).rejects.toMatchObject({
      code: '429.3',
      message: 'This workspace is converting too many forms at once. Please try again when one of them has finished.',
    });
    expect(p.load).toEqual({ running: 1, waiting: 2 });
    await expect(run('A', 'a5')).rejects.toMatchObject({ code: '429.3' });
    await expect(Promise.all([a1, a2, b1])).resolves.toHaveLength(3);
    expect(p.load).toEqual({ running: 0, waiting: 0 });
    await p.close();
  });
});
