// Form-file conversions off the event loop: each conversion runs in a fresh worker thread with a heap cap and a
// wall-clock budget, at most `workers` at once and `queue` waiting; beyond that a conversion is refused at once
// (503.2, answered with Retry-After) rather than queued without bound. A fresh thread per conversion (not a pool of
// warm ones, as piscina keeps) because nothing a bad workbook did may outlive it: its heap is given back when it
// ends, and its budget is counted from its own start, not from when it was queued. Loading a worker's modules
// (exceljs, the sampler) takes 0.5-1.5 s (more on a loaded machine), so one spare worker is started ahead and each
// conversion takes it; the worker says when its modules are loaded, and the budget counts from then (the file's
// work, not our start-up: a spare taken before it was ready made a tiny file "take too long" on a busy machine).
// Loading is bounded on its own (`startupMs`).
import { Worker } from 'node:worker_threads';
import { Problem, problems, type FieldErrors } from '@fieldwork/service-kit/problems';
import type { Logger } from '@fieldwork/service-kit';
import type { ConvertedFile } from './convert-file.js';
import type { FormLimits } from './form-limits.js';

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
  /** Wall-clock budget of one conversion, from its worker's start. */
  timeoutMs: number;
  /** Old-generation heap of a worker, in MB. */
  heapMb: number;
  /** The most a worker may take to load its modules (STARTUP_MS when absent); past it the conversion fails (400.14). */
  startupMs?: number;
  log: Logger;
}

/** Runs conversions in worker threads within the options' bounds. */
export class ConversionPool {
  private running = 0;
  private readonly waiting: { start: () => void }[] = [];
  private readonly live = new Set<Worker>();
  private readonly exited = new WeakSet<Worker>();
  private readonly ready = new WeakSet<Worker>();
  private spare: Worker | undefined;
  private closed = false;

  constructor(private readonly options: ConversionPoolOptions) {
    this.refill();
  }

  /** Conversions running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Converts in a worker. Refuses with 503.2 when every worker is busy and the queue is full, 400.12 past the time
   * budget, 400.13 past the heap cap, 400.14 on an unexpected failure; the worker's own problem as it is. When
   * `signal` aborts (the caller gave up) the conversion is stopped, waiting or running.
   */
  async run(job: ConversionJob, signal?: AbortSignal): Promise<ConvertedFile> {
    if (this.closed) throw problems.unavailable();
    await this.acquire(signal);
    try {
      return await this.inWorker(job, signal);
    } finally {
      this.release();
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

  private async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw problems.timeout();
    if (this.running < this.options.workers) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.options.queue) throw problems.conversionsBusy();
    // The slot of a finishing conversion is handed over as it is (running stays counted), so none is taken twice.
    await new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(entry), 1);
        reject(problems.timeout());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running--;
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
