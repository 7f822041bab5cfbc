// The worker-thread side of ImportWorker (import-runner.ts): runs importApi / importVersion for one job at a time
// and posts back the result, or the ImportError's parameter and template (an ImportError does not survive the
// structured clone), or any other failure's message. Owns nothing else: no I/O, no state between jobs.
import { parentPort } from 'node:worker_threads';
import { ImportError } from './errors.ts';
import { importApi, importVersion } from './import.ts';
import type { ImportJob, ImportJobAnswer } from './import-runner.ts';

parentPort?.on('message', (job: ImportJob) => {
  void run(job).then((answer) => parentPort?.postMessage(answer));
});

async function run(job: ImportJob): Promise<ImportJobAnswer> {
  try {
    const result = job.existing === undefined ? await importApi(job.source, job.options) : await importVersion(job.existing, job.source, job.options);
    return { id: job.id, result };
  } catch (error) {
    if (error instanceof ImportError) return { id: job.id, refused: error.parts() };
    return { id: job.id, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
