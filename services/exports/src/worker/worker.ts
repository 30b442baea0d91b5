// The export workers: a durable pull consumer of the JOBS work queue, one job at a time per worker process, as many
// processes as wanted. A running job tells JetStream it is alive; a worker that dies stops doing so and, after
// EXPORT_ACK_WAIT_S, the job goes to another worker, which starts it again from the beginning (same object key, so no
// duplicated or truncated file). A job is tried EXPORT_MAX_ATTEMPTS times, then marked failed. Expired files are
// deleted on the side. The pulling is service-kit's startPullLoop: a job whose handling throws (the database away)
// is nak'ed and comes back after the loop's pause.
import { consumerLag, ensureConsumer, isProblem, UnsafeZip, isServiceError, metrics, startPullLoop, statusToProblem, type JsMsg, type Logger, type Nats, type PullLoop } from '@fieldwork/service-kit';
import { ExportCancelled } from '../export/csv-writer.js';
import type { ExportsDeps } from '../service/deps.js';
import { JobStore } from '../store/job.store.js';
import { ImportFailed, runImport, runUsersImport, type JobOutcome } from '../import/run-import.js';
import { runExport } from './run-export.js';

export const DURABLE = 'exports-workers';

export class ExportWorker {
  private stopped = false;
  private sweeper: NodeJS.Timeout | undefined;
  private pulling: PullLoop | undefined;
  private readonly jobs: JobStore;

  constructor(
    private readonly nats: Nats,
    private readonly deps: ExportsDeps,
    private readonly options: { stream: string; pageSize: number; pageDelayMs: number; maxAttempts: number; ackWaitS: number; log: Logger },
  ) {
    this.jobs = new JobStore(deps.sql);
  }

  async start(): Promise<void> {
    await ensureConsumer(this.nats.jsm, { stream: this.options.stream, durable: DURABLE, ackWaitS: this.options.ackWaitS, maxAckPending: 1000 });
    this.pulling = startPullLoop(this.nats, {
      stream: this.options.stream,
      durable: DURABLE,
      // One job at a time per worker process.
      batch: 1,
      // A job delivered just as a pull expires is dropped by the client and comes back after the ack wait: pulls
      // that last 5 s make that rarer than 1 s ones.
      expiresMs: 5000,
      log: this.options.log,
      failureMessage: 'export worker: a pull or a job failed; retrying',
      handleMessage: (m) => this.handle(m),
    });
    this.sweeper = setInterval(() => void this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private async handle(m: JsMsg): Promise<void> {
    const id = m.string();
    const job = await this.jobs.start(id);
    if (!job) return m.ack(); // finished, cancelled or unknown
    const log = this.options.log.child({ jobId: id });
    if (job.attempts > this.options.maxAttempts) {
      await this.jobs.fail(id, 'The job failed too many times.');
      this.deps.announceFinished(id);
      return m.ack();
    }
    // Alive: JetStream keeps the job with this worker while it works.
    const alive = setInterval(() => m.working(), Math.max(1000, (this.options.ackWaitS * 1000) / 3));
    let cancelled = false;
    try {
      const options = {
        pageSize: this.options.pageSize,
        pageDelayMs: this.options.pageDelayMs,
        cancelled: () => cancelled || this.stopped,
        progress: async (done: number, total: number) => {
          metrics.jobProgress.set({ job_id: id, kind: job.kind }, total > 0 ? Math.min(1, done / total) : 0);
          if ((await this.jobs.progress(id, done, total)) === 'cancelled') cancelled = true;
        },
      };
      const out: JobOutcome =
        job.kind === 'import_responses' ? await runImport(job, this.deps, options) : job.kind === 'import_users' ? await runUsersImport(job, this.deps, options) : await runExport(job, this.deps, options);
      const finished = await this.jobs.finish(id, {
        object_key: out.key,
        size: out.size,
        rows: out.rows,
        expires_at: new Date(Date.now() + this.deps.fileTtlHours * 3_600_000),
        rows_failed: out.rows_failed ?? 0,
        report_key: out.report_key ?? null,
        result: out.result ?? {},
      });
      if (!finished) for (const key of [out.key, out.report_key]) if (key) await this.deps.store.delete(key); // cancelled at the last moment
      log.info({ kind: job.kind, rows: out.rows, size: out.size, attempt: job.attempts }, 'job done');
      metrics.jobsFinished.inc({ kind: job.kind, status: finished ? 'done' : 'cancelled' });
      metrics.jobRows.inc({ kind: job.kind }, out.rows);
      this.deps.announceFinished(id);
      m.ack();
    } catch (err) {
      const problem = isProblem(err) ? err : isServiceError(err) ? statusToProblem(err) : undefined;
      const refused = err instanceof ImportFailed || err instanceof UnsafeZip ? err.message : problem && problem.status < 500 ? problem.message : undefined;
      if (err instanceof ExportCancelled && !this.stopped) {
        log.info('job cancelled');
        metrics.jobsFinished.inc({ kind: job.kind, status: 'cancelled' });
        this.deps.announceFinished(id);
        m.ack();
      } else if (refused !== undefined && !this.stopped) {
        // Bad input (a file without a header, a mapping gone wrong, a refused users list): trying again won't help.
        log.info({ err }, 'job refused');
        await this.jobs.fail(id, refused);
        metrics.jobsFinished.inc({ kind: job.kind, status: 'failed' });
        this.deps.announceFinished(id);
        m.ack();
      } else if (this.stopped) {
        m.nak(); // shutting down: another worker takes it
      } else if (job.attempts >= this.options.maxAttempts) {
        log.error({ err }, 'export failed');
        await this.jobs.fail(id, job.kind.startsWith('import_') ? 'The import failed. Please try again.' : 'There was a problem updating the export files. Please try again.');
        metrics.jobsFinished.inc({ kind: job.kind, status: 'failed' });
        this.deps.announceFinished(id);
        m.ack();
      } else {
        log.warn({ err, attempt: job.attempts }, 'export attempt failed; retrying');
        m.nak(2000);
      }
    } finally {
      clearInterval(alive);
      metrics.jobProgress.remove({ job_id: id, kind: job.kind });
    }
  }

  /** Deletes the files of expired jobs; reads the queue's lag for the metrics. */
  private async sweep(): Promise<void> {
    try {
      await consumerLag(this.nats.jsm, this.options.stream, DURABLE);
      for (const job of await this.jobs.expired()) {
        for (const key of [job.object_key, job.report_key]) if (key) await this.deps.store.delete(key);
        await this.jobs.forget(job.id);
      }
    } catch (err) {
      this.options.log.warn({ err }, 'export expiry sweep failed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.pulling?.stop(); // ends a pull that waits for a job; a job being handled runs to its end
  }
}
