// The JOBS work queue (docs/architecture.md): export and import jobs, each taken by exactly one worker.
import type { StreamConfig } from '@fieldwork/service-kit';

export function jobsStream(prefix: string): Partial<StreamConfig> & { name: string; subjects: string[] } {
  return {
    name: `${prefix === '' ? '' : `${prefix}_`}JOBS`,
    subjects: [`${prefix === '' ? '' : `${prefix}.`}jobs.>`],
    retention: 'workqueue' as StreamConfig['retention'],
  };
}

/** The subject export jobs are published on. */
export const jobSubject = (prefix: string) => `${prefix === '' ? '' : `${prefix}.`}jobs.export`;
