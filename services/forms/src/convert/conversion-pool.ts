// Form-file conversions off the event loop: each conversion runs in a fresh worker thread with a heap cap and a
// wall-clock budget, at most `workers` at once and `queue` waiting; beyond that a conversion is refused at once
// (503.2, answered with Retry-After) rather than queued without bound. A fresh thread per conversion (not a pool of
// warm ones, as piscina keeps) because nothing a bad workbook did may outlive it: its heap is given back when it
// ends, and its budget is counted from its own start, not from when it was queued. Loading a worker's modules
// (exceljs, the sampler) takes 0.5-1.5 s (more on a loaded machine), so one spare worker is started ahead and each
// conversion takes it; the worker says when its modules are loaded, and the budget counts from then (the file's
// work, not our start-up: a spare taken before it was ready made a tiny file "take too long" on a busy machine).
// Loading is bounded on its own (`startupMs`). The workers and the queue are shared fairly between workspaces
// (fair-share.ts): one workspace's imports neither take every worker nor keep the others out of the queue. Workers run
// at the lowest CPU priority (conversion.worker.ts), so the service's own calls (a form's load and save, health
// checks) never wait behind a conversion for a core.
import { Worker } from 'node:worker_threads';
import { Problem, problems, type FieldErrors } from '@fieldwork/service-kit/problems';
import type { Logger } from '@fieldwork/service-kit';
import type { ConvertedFile } from './convert-file.js';
import type { FormLimits } from './form-limits.js';
import { admit, nextLane, shareLimits, type LaneLoad, type ShareLimits } from './fair-share.js';

/** What a worker is sent. */
export interface ConversionJob {
  filename: string;
  content: Uint8Array;
  projectType: string;
  limits: FormLimits;
}

/** What a worker says once its modules are loaded, before any job. */
export const WORKER_READY = 'conversion-worker-ready';

/** The most a worker may take to load its modules before its job's budget starts (the default of `startupMs`). */
export const STARTUP_MS = 30_000;

/** What a worker answers: the converted form, the problem that refused it, or an unexpected failure. */
export type ConversionAnswer =
  | { result: ConvertedFile }
  | { problem: { code: string; message: string; fields?: FieldErrors } }
  | { failure: string };

export interface ConversionPoolOptions {
  /** The worker's module (dist/convert/conversion.worker.js). */
  workerFile: URL | string;
  /** Conversions running at once. */
  workers: number;
  /** Conversions waiting for a worker; more are refused. */
  queue: number;
  /** Conversions one workspace runs at once (fair-share.ts); absent: all the workers but one, at least one. */
  workspaceWorkers?: number;
  /** Wall-clock budget of one conversion, from its worker's start. */
  timeoutMs: number;
  /** Old-generation heap of a worker, in MB. */
  heapMb: number;
  /** The most a worker may take to load its modules (STARTUP_MS when absent); past it the conversion fails (400.14). */
  startupMs?: number;
  log: Logger;
}

/** A conversion waiting for a worker: started, or refused (its place given to another workspace). */
interface Waiting {
  start: () => void;
  refuse: (problem: Problem) => void;
}

/** One workspace's conversions: how many run, and those waiting, oldest first. */
interface Lane {
  running: number;
  waiting: Waiting[];
}

/** Runs conversions in worker threads within the options' bounds, shared fairly between workspaces. */
export class ConversionPool {
  /** The lanes of the workspaces converting now (an idle one is dropped), in the order they came: the turn order. */
  private readonly lanes = new Map<string, Lane>();
  /** The workspace that took the last freed worker: the next one goes to the one after it. */
  private lastServed: string | undefined;
  private readonly limits: ShareLimits;
  private readonly live = new Set<Worker>();
  private readonly exited = new WeakSet<Worker>();
  private readonly ready = new WeakSet<Worker>();
  private spare: Worker | undefined;
  private closed = false;

  constructor(private readonly options: ConversionPoolOptions) {
    this.limits = shareLimits(
      options.workers,
      options.queue,
      // One worker stays for the other workspaces (with a single worker, the turns and the fair queue share it).
      options.workspaceWorkers ?? options.workers - 1,
    );
    this.refill();
  }

  /** Conversions running and waiting now. */
  get load(): { running: number; waiting: number } {
    let running = 0;
    let waiting = 0;
    for (const l of this.lanes.values()) {
      running += l.running;
      waiting += l.waiting.length;
    }
    return { running, waiting };
  }

  /**
   * Converts in a worker, for `workspace` (its share: fair-share.ts). Refuses with 503.2 when every worker is busy
   * and the queue is full, 429.3 when the workspace holds its share while others convert (then also when a waiting
   * conversion gives its place to another workspace's), 400.12 past the time budget, 400.13 past the heap cap, 400.14
   * on an unexpected failure; the worker's own problem as it is. When `signal` aborts (the caller gave up) the
   * conversion is stopped, waiting or running.
   */
  async run(job: ConversionJob, signal?: AbortSignal, workspace = ''): Promise<ConvertedFile> {
    if (this.closed) throw problems.unavailable();
    await this.acquire(workspace, signal);
    try {
      return await this.inWorker(job, signal);
    } finally {
      this.release(workspace);
    }
  }

  /** Terminates every worker (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.spare = undefined;
    await Promise.all([...this.live].map((w) => w.terminate()));
  }

  private spawn(): Worker {
    const { heapMb, log } = this.options;
    const worker = new Worker(this.options.workerFile, {
      resourceLimits: {
        maxOldGenerationSizeMb: heapMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.min(64, Math.round(heapMb / 8))),
        stackSizeMb: 4,
      },
    });
    this.live.add(worker);
    const onReady = (m: unknown) => {
      if (m !== WORKER_READY) return;
      this.ready.add(worker);
      worker.off('message', onReady);
    };
    worker.on('message', onReady);
    worker.once('exit', () => {
      this.exited.add(worker);
      this.live.delete(worker);
      if (this.spare === worker) this.spare = undefined;
    });
    // A spare that fails while it waits (its modules did not load) is logged and replaced when taken.
    worker.on('error', (err) => {
      if (this.spare === worker) log.error({ err }, 'spare conversion worker failed');
    });
    return worker;
  }

  /** Keeps one started worker ready for the next conversion. */
  private refill(): void {
    if (!this.closed && this.spare === undefined) this.spare = this.spawn();
  }

  private take(): Worker {
    const worker = this.spare !== undefined && !this.exited.has(this.spare) ? this.spare : this.spawn();
    this.spare = undefined;
    return worker;
  }

  private loads(): Map<string, LaneLoad> {
    return new Map([...this.lanes].map(([w, l]) => [w, { running: l.running, waiting: l.waiting.length }]));
  }

  private lane(workspace: string): Lane {
    let lane = this.lanes.get(workspace);
    if (!lane) this.lanes.set(workspace, (lane = { running: 0, waiting: [] }));
    return lane;
  }

  private dropIfIdle(workspace: string): void {
    const lane = this.lanes.get(workspace);
    if (lane && lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(workspace);
  }

  private async acquire(workspace: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw problems.timeout();
    const admission = admit(workspace, this.loads(), this.limits);
    if (admission.kind === 'run') {
      this.lane(workspace).running++;
      this.lastServed = workspace;
      return;
    }
    if (admission.kind === 'refuse')
      throw admission.overShare ? problems.workspaceConversionsBusy() : problems.conversionsBusy();
    if (admission.evict !== undefined) {
      // The newest waiting conversion of the workspace holding the most gives its place up.
      this.lanes.get(admission.evict)?.waiting.pop()?.refuse(problems.workspaceConversionsBusy());
      this.dropIfIdle(admission.evict);
    }
    const lane = this.lane(workspace);
    // Started by pump() with the slot counted in its lane already, so none is taken twice.
    await new Promise<void>((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        refuse: (problem) => {
          signal?.removeEventListener('abort', onAbort);
          reject(problem);
        },
      };
      const onAbort = () => {
        lane.waiting.splice(lane.waiting.indexOf(entry), 1);
        this.dropIfIdle(workspace);
        reject(problems.timeout());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.waiting.push(entry);
    });
  }

  private release(workspace: string): void {
    const lane = this.lanes.get(workspace);
    if (lane) lane.running--;
    this.pump();
    this.dropIfIdle(workspace);
  }

  /** Gives the free workers to waiting conversions, the workspaces in turn. */
  private pump(): void {
    for (;;) {
      const loads = this.loads();
      let running = 0;
      for (const l of loads.values()) running += l.running;
      if (running >= this.limits.workers) return;
      const next = nextLane([...this.lanes.keys()], this.lastServed, loads, this.limits);
      if (next === undefined) return;
      const lane = this.lanes.get(next)!;
      const entry = lane.waiting.shift()!;
      lane.running++;
      this.lastServed = next;
      entry.start();
    }
  }

  private inWorker(job: ConversionJob, signal?: AbortSignal): Promise<ConvertedFile> {
    const { timeoutMs, heapMb, log, startupMs = STARTUP_MS } = this.options;
    return new Promise<ConvertedFile>((resolve, reject) => {
      const taken = performance.now();
      let started = taken;
      const worker = this.take();
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (err: Error | undefined, result?: ConvertedFile) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        void worker.terminate();
        this.refill();
        log.info(
          {
            ms: Math.round(performance.now() - started),
            waitedForStartMs: Math.round(started - taken),
            code: err instanceof Problem ? err.code : err ? 'error' : 'ok',
          },
          'conversion finished',
        );
        if (err) reject(err);
        else resolve(result!);
      };
      // The job's budget, from the moment the worker's modules are loaded.
      const startBudget = () => {
        started = performance.now();
        clearTimeout(timer);
        timer = setTimeout(() => {
          log.warn({ timeoutMs, filename: job.filename }, 'conversion over its time budget: worker terminated');
          finish(problems.conversionTimedOut(Math.round(timeoutMs / 100) / 10));
        }, timeoutMs);
      };
      if (this.ready.has(worker)) startBudget();
      else
        timer = setTimeout(() => {
          log.error({ startupMs, filename: job.filename }, 'conversion worker did not start: terminated');
          finish(problems.conversionFailed());
        }, startupMs);
      const onAbort = () => {
        log.info({ filename: job.filename }, 'conversion cancelled by its caller: worker terminated');
        finish(problems.timeout());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const onMessage = (answer: ConversionAnswer | typeof WORKER_READY) => {
        if (answer === WORKER_READY) return startBudget();
        if ('result' in answer) return finish(undefined, answer.result);
        if ('problem' in answer)
          return finish(new Problem(answer.problem.code, answer.problem.message, answer.problem.fields));
        log.error({ failure: answer.failure, filename: job.filename }, 'conversion failed');
        finish(problems.conversionFailed());
      };
      worker.on('message', onMessage);
      worker.once('error', (err: Error & { code?: string }) => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          log.warn({ heapMb, filename: job.filename }, 'conversion over its heap: worker stopped');
          return finish(problems.conversionOutOfMemory());
        }
        log.error({ err, filename: job.filename }, 'conversion worker failed');
        finish(problems.conversionFailed());
      });
      worker.once('exit', (code) => {
        if (!settled) log.error({ code, filename: job.filename }, 'conversion worker exited without an answer');
        finish(problems.conversionFailed());
      });
      worker.postMessage(job);
    });
  }
}
