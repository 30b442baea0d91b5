// A conversion worker: one thread per form file. conversion-pool.ts starts it with a heap cap, sends it one job, and
// terminates it when it answers or when its time is up (terminate works even while this thread's loop is blocked).
import { parentPort } from 'node:worker_threads';
import { isProblem } from '@fieldwork/service-kit/problems';
import { convertFile } from './convert-file.js';
import { WORKER_READY, type ConversionAnswer, type ConversionJob } from './conversion-pool.js';

const port = parentPort;
if (!port) throw new Error('conversion.worker.js runs as a worker thread');
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
