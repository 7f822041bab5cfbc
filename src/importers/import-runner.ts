// ImportWorker: runs imports (import.ts) on one worker thread, so a large document is decoded, `$ref`-resolved
// and converted off the caller's event loop (the dashboard keeps answering other requests meanwhile). One
// worker, started on the first job and ended after `idleMs` without work (an idle dashboard holds no second V8
// isolate); jobs run one at a time in arrival order, at most `maxQueued` waiting (more is ImportBusyError). A
// refusal comes back as the same ImportError the importer threw; a crash of the worker fails the jobs it held
// and the next job starts a fresh worker. The gateway command imports inline (import.ts) and needs none of this.
import { Worker } from 'node:worker_threads';
import { ImportError, type ImportParameter } from './errors.ts';
import type { ImportSource } from './import.ts';
import type { ImportOptions, ImportResult } from './options.ts';

/** One job as posted to the worker. `existing` set: importVersion into it; else importApi. */
export interface ImportJob {
  id: number;
  source: ImportSource;
  options: ImportOptions;
  existing?: unknown;
}

export type ImportJobAnswer =
  { id: number; result: ImportResult } | { id: number; refused: { parameter: ImportParameter; template: string } } | { id: number; failed: string };

export interface ImportWorkerOptions {
  /** End the worker after this long without a job (ms). Default 30 000. */
  idleMs?: number;
  /** Jobs waiting behind the running one before new ones are refused. Default 8. */
  maxQueued?: number;
}

/** Too many imports already waiting: the caller should answer 503 and let the client retry. */
export class ImportBusyError extends Error {
  override readonly name = 'ImportBusyError';
}

interface Pending {
  job: ImportJob;
  resolve: (result: ImportResult) => void;
  reject: (error: Error) => void;
}

const WORKER_URL = new URL('./import-worker.ts', import.meta.url);

export class ImportWorker {
  readonly #idleMs: number;
  readonly #maxQueued: number;
  readonly #queue: Pending[] = [];
  #running: Pending | undefined;
  #worker: Worker | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: ImportWorkerOptions = {}) {
    this.#idleMs = options.idleMs ?? 30_000;
    this.#maxQueued = options.maxQueued ?? 8;
  }

  /** A new API definition from the document (importApi, off-thread). */
  importApi(source: ImportSource, options: ImportOptions): Promise<ImportResult> {
    return this.#submit({ source, options });
  }

  /** `existing` plus the document as a new version (importVersion, off-thread). */
  importVersion(existing: unknown, source: ImportSource, options: ImportOptions): Promise<ImportResult> {
    return this.#submit({ source, options, existing });
  }

  /** Ends the worker; waiting and running jobs fail. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll(new Error('the import worker was closed'));
    await worker?.terminate();
  }

  #submit(job: Omit<ImportJob, 'id'>): Promise<ImportResult> {
    if (this.#closed) return Promise.reject(new Error('the import worker was closed'));
    if (this.#queue.length >= this.#maxQueued) return Promise.reject(new ImportBusyError(`${this.#queue.length} imports are already waiting`));
    return new Promise<ImportResult>((resolve, reject) => {
      this.#queue.push({ job: { ...job, id: this.#nextId++ }, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#running || this.#queue.length === 0) return;
    clearTimeout(this.#idleTimer);
    this.#running = this.#queue.shift()!;
    this.#ensureWorker().postMessage(this.#running.job);
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_URL);
    worker.on('message', (answer: ImportJobAnswer) => this.#settle(answer));
    worker.on('error', (error: Error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the import worker exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #settle(answer: ImportJobAnswer): void {
    const running = this.#running;
    if (!running || running.job.id !== answer.id) return;
    this.#running = undefined;
    if ('result' in answer) running.resolve(answer.result);
    else if ('refused' in answer) running.reject(new ImportError(answer.refused.parameter, answer.refused.template));
    else running.reject(new Error(`import failed: ${answer.failed}`));
    this.#afterJob();
  }

  #afterJob(): void {
    if (this.#queue.length > 0) return this.#pump();
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      const worker = this.#worker;
      this.#worker = undefined;
      void worker?.terminate();
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    const running = this.#running;
    this.#running = undefined;
    running?.reject(error);
    this.#pump();
  }

  #failAll(error: Error): void {
    this.#running?.reject(error);
    this.#running = undefined;
    for (const pending of this.#queue.splice(0)) pending.reject(error);
  }
}
