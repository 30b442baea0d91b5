// A conversion worker: one thread per form file. conversion-pool.ts starts it with a heap cap, sends it one job, and
// terminates it when it answers or when its time is up (terminate works even while this thread's loop is blocked).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { isProblem } from '@fieldwork/service-kit/problems';
import { WORKER_READY, type ConversionAnswer, type ConversionJob } from './conversion-pool.js';

const port = parentPort;
if (!port) throw new Error('conversion.worker.js runs as a worker thread');
// The lowest CPU priority, for this thread only (on Linux the nice value is per thread): a conversion takes the cores
// the service's event loop leaves, so a form's load and save, and health checks, never wait for one (issue 30 item 6).
// Set before the converter's modules load (their loading is a conversion's first cost), hence the dynamic import.
try {
  setPriority(19);
} catch {
  // Not allowed here (some sandboxes): the conversion still runs, at the service's priority.
}
const { convertFile } = await import('./convert-file.js');
// This module's imports are loaded (exceljs, the sampler): the job's time budget starts now.
port.postMessage(WORKER_READY);
port.once('message', (job: ConversionJob) => {
  const content = Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength);
  convertFile(job.filename, content, job.projectType, job.limits).then(
    (result) => port.postMessage({ result } satisfies ConversionAnswer),
    (err: unknown) =>
      port.postMessage(
        (isProblem(err)
          ? { problem: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } }
          : { failure: err instanceof Error ? (err.stack ?? err.message) : String(err) }) satisfies ConversionAnswer,
      ),
  );
});
