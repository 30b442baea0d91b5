// Start and stop of a process: config errors exit non-zero, SIGTERM/SIGINT stop cleanly, a second signal exits at once.
import { setFlagsFromString } from 'node:v8';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';

/**
 * How long a stopping process may take in all before it exits anyway (SHUTDOWN_DEADLINE_S, default 25 s: after the
 * drain of in-flight calls, SHUTDOWN_TIMEOUT_S, and within Kubernetes' default grace period of 30 s).
 */
const SHUTDOWN_DEADLINE_MS =
  (Number(process.env.SHUTDOWN_DEADLINE_S) > 0 ? Number(process.env.SHUTDOWN_DEADLINE_S) : 25) * 1000;

/** Thrown by startService under MIGRATE=only once the migrations are done: the process exits 0. */
export class MigrationsDone extends Error {
  constructor() {
    super('migrations done');
    this.name = 'MigrationsDone';
  }
}

/**
 * Runs `main`. A ConfigError prints its list and exits 2; any other start-up failure exits 1.
 * `main` returns the function that stops what it started.
 */
export function runMain(
  main: () => Promise<{ log: Logger; stop: () => Promise<void>; exitWithParent?: boolean }>,
): void {
  // Answers are matched against patterns written by form designers (packages/sampler/src/patterns.ts): a pattern
  // that backtracks too much falls back to V8's linear-time engine instead of holding the event loop.
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  main().then(
    ({ log, stop, exitWithParent }) => {
      let stopping = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) {
          log.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        stopping = true;
        log.info({ signal }, 'shutting down');
        // Stopping has a deadline: a close that never finishes cannot keep the process (and a rolling update or the
        // launcher) waiting. Kubernetes' SIGKILL after terminationGracePeriodSeconds and the launcher's after its
        // grace period cover a blocked event loop, where this timer cannot run.
        setTimeout(() => {
          log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown deadline passed: exiting');
          process.exit(1);
        }, SHUTDOWN_DEADLINE_MS).unref();
        stop().then(
          () => {
            log.info('stopped');
            process.exit(0);
          },
          (err: unknown) => {
            log.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      if (exitWithParent) {
        // Started by the launcher with a stdin pipe: when it closes, the launcher is gone.
        process.stdin.on('end', () => onSignal('SIGTERM'));
        process.stdin.resume();
      }
    },
    (err: unknown) => {
      if (err instanceof MigrationsDone) process.exit(0);
      if (err instanceof ConfigError) {
        console.error(err.message);
        process.exit(2);
      }
      console.error('start-up failed:', err);
      process.exit(1);
    },
  );
}
