// "This job has finished", told over core NATS (no stream): the exports service announces a job that reached an end
// (done, failed, cancelled), and a gateway request that waits for its job listens for that one event instead of
// polling the job's state. The web app follows a job by polling GET exports/jobs/{id}/ (RTK Query); this is only the
// short wait of the calls that answer a small job's result at once.
import type { NatsConnection } from '@nats-io/transport-node';

/** The subject of a job's finished event; outside `jobs.>`, which the JOBS work queue stream takes. */
export function jobFinishedSubject(prefix: string, jobId: string): string {
  return `${prefix === '' ? '' : `${prefix}.`}jobevents.${jobId}.finished`;
}

/** Announces and awaits finished jobs on one NATS connection. */
export class JobEvents {
  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  /** Tells whoever waits that the job reached an end (fire and forget: a waiter that misses it answers at its deadline). */
  announceFinished(jobId: string): void {
    if (!this.nc.isClosed()) this.nc.publish(jobFinishedSubject(this.prefix, jobId));
  }

  /**
   * The job once finished, or as it stands after `ms`: listens for its finished event first, then reads it once
   * (it may have finished already), and, when it has not, reads it again when the event comes or the time is up.
   * Two reads at most, whatever `ms`.
   */
  async settle<J>(jobId: string, ms: number, read: () => Promise<J>, finished: (job: J) => boolean): Promise<J> {
    if (ms <= 0 || this.nc.isClosed()) return read();
    const deadline = Date.now() + ms;
    const sub = this.nc.subscribe(jobFinishedSubject(this.prefix, jobId), { max: 1 });
    let timer: NodeJS.Timeout | undefined;
    const until = (at: number) => new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, at - Date.now()))));
    try {
      // The server has the subscription before the first read, so an end between the two is not missed. While NATS
      // is away the flush waits for it: then the job is answered as it stands, at the deadline at the latest.
      const listening = await Promise.race([this.nc.flush().then(() => true, () => false), until(deadline)]);
      clearTimeout(timer);
      const now = await read();
      if (finished(now) || !listening) return now;
      await Promise.race([
        (async () => {
          for await (const _ of sub) break;
        })(),
        until(deadline),
      ]);
      clearTimeout(timer);
      return await read();
    } finally {
      clearTimeout(timer);
      sub.unsubscribe();
    }
  }
}

/** Without NATS (gateway tests with fake clients): the job as it stands, read once. */
export const NO_JOB_EVENTS: Pick<JobEvents, 'settle' | 'announceFinished'> = {
  settle: (_jobId, _ms, read) => read(),
  announceFinished: () => undefined,
};
