// The launcher as a small process manager (single-machine mode; on Kubernetes the kubelet does this with the chart's
// probes): a process that exits, or stops answering its liveness probe, is restarted with backoff and logged, and the
// others keep running.
import type { Child } from './processes.js';

export interface SupervisionPolicy {
  /** Time between two liveness probes of one process. */
  probeEveryMs: number;
  /** Consecutive unanswered probes after which a process is taken for hung and restarted. */
  failuresBeforeRestart: number;
  /** First wait before a restart, doubled per crash in a row up to `maxBackoffMs`. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** A process that ran this long before it exited starts again after `firstBackoffMs`. */
  stableMs: number;
  /** How long a restarted process may take to answer before it is taken for hung. */
  startTimeoutMs: number;
  /** SIGTERM, then SIGKILL after this long (a busy or hung process cannot stop the launcher). */
  stopGraceMs: number;
}

export const DEFAULT_SUPERVISION: SupervisionPolicy = {
  probeEveryMs: 5000,
  failuresBeforeRestart: 3,
  firstBackoffMs: 1000,
  maxBackoffMs: 30_000,
  stableMs: 60_000,
  startTimeoutMs: 90_000,
  stopGraceMs: 5000,
};

/** The wait before restart number `crashesInARow` (1 for the first). */
export function backoffMs(
  crashesInARow: number,
  policy: Pick<SupervisionPolicy, 'firstBackoffMs' | 'maxBackoffMs'>,
): number {
  return Math.min(policy.maxBackoffMs, policy.firstBackoffMs * 2 ** Math.min(30, Math.max(0, crashesInARow - 1)));
}

export interface Supervised {
  /** The process's current incarnation. */
  child(): Child;
  /** Starts a new incarnation (same name, port and environment). */
  start(): Child;
  /** Resolves true when the process answers (a liveness probe: any answer, even "not serving", means it is alive). */
  probe(timeoutMs: number): Promise<boolean>;
  /** Called with each new incarnation, e.g. to keep a map of children current. */
  replaced(child: Child): void;
}

export interface Supervisor {
  stop(): void;
  /** Restarts so far, per process name. */
  restarts: Map<string, number>;
}

export function supervise(
  processes: Map<string, Supervised>,
  log: (msg: string) => void,
  policy: SupervisionPolicy = DEFAULT_SUPERVISION,
): Supervisor {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const restarts = new Map<string, number>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  for (const [name, p] of processes) {
    let crashes = 0;
    let misses = 0;
    let startedAt = Date.now();
    let alive = true; // answered since it started
    let restarting = false;

    const watch = (child: Child) => {
      void child.exited.then((code) => {
        if (stopped || child !== p.child()) return;
        crashes = Date.now() - startedAt >= policy.stableMs ? 1 : crashes + 1;
        const wait = backoffMs(crashes, policy);
        log(
          `${name} exited (${code === null ? `signal ${child.process.signalCode ?? '?'}` : `code ${code}`}); restarting in ${(wait / 1000).toFixed(1)} s`,
        );
        later(wait, () => {
          if (stopped) return;
          const next = p.start();
          restarts.set(name, (restarts.get(name) ?? 0) + 1);
          startedAt = Date.now();
          alive = false;
          misses = 0;
          restarting = false;
          p.replaced(next);
          watch(next);
        });
      });
    };

    const check = async () => {
      if (stopped) return;
      const child = p.child();
      if (!restarting && child.process.exitCode === null && child.process.signalCode === null) {
        const answered = await p.probe(Math.min(2000, policy.probeEveryMs));
        if (stopped || child !== p.child()) return later(policy.probeEveryMs, () => void check());
        if (answered) {
          if (!alive) log(`${name} is answering again`);
          alive = true;
          misses = 0;
        } else if (alive ? ++misses >= policy.failuresBeforeRestart : Date.now() - startedAt > policy.startTimeoutMs) {
          log(
            alive
              ? `${name} stopped answering its health check (${misses} probes in a row); restarting it`
              : `${name} did not answer within ${policy.startTimeoutMs / 1000} s of its start; restarting it`,
          );
          restarting = true;
          // A blocked event loop never runs its SIGTERM handler: SIGKILL follows after the grace period.
          void child.stop(policy.stopGraceMs);
        }
      }
      later(policy.probeEveryMs, () => void check());
    };

    watch(p.child());
    later(policy.probeEveryMs, () => void check());
  }

  return {
    restarts,
    stop: () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
