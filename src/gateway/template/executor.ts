// Runs body-transform templates off the gateway's thread, each bounded in time. A WebAssembly call is synchronous
// and Go's text/template has no step hook, so an in-thread execution cannot be interrupted: a template looping for
// a second would stop every request of the gateway for that second. Executions therefore go to one worker thread
// (engine-worker.ts) holding its own engine, one at a time, in order; when one runs past its time limit the worker
// is terminated (the only way to stop WebAssembly), that execution fails with TemplateTimeoutError, and a fresh
// worker, given every template again, takes the next. The gateway's thread keeps serving meanwhile.
//
// Templates are announced (`prepare`) when an API is loaded, so the worker compiles them before the first request.
// It never logs and never sees anything of a request beyond the bytes it is given.
//
// This is the fallback runner: templateExecutor() below prefers the native engine process (native-executor.ts),
// which runs the same Go code several times faster (no WebAssembly, no worker hop), whenever its binary is built.
import { Worker } from 'node:worker_threads';
import { locateNativeTemplateEngine, locateTemplateEngine } from './artefact.ts';
import { BodyDecodeError, TemplateExecuteError, type CompiledTemplate, type InputFormat } from './engine.ts';
import { NativeTemplateExecutor } from './native-executor.ts';
import { TemplateTimeoutError, type PendingExecution, type TemplateRunner } from './runner.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

export { TemplateTimeoutError } from './runner.ts';

/** Longest a new worker may take to load its engine before the job waiting for it fails. */
const WORKER_START_MS = 60_000;

export class TemplateExecutor implements TemplateRunner {
  readonly #path: string;
  /** Every template announced, by the main engine's handle: a new worker compiles them all. */
  readonly #templates = new Map<number, CompiledTemplate>();
  readonly #queue: PendingExecution[] = [];
  #worker: Worker | undefined;
  #running: PendingExecution | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** The current worker has loaded its engine (its 'ready' message): the running job's time limit counts. */
  #workerReady = false;
  #nextId = 1;

  constructor(path: string) {
    this.#path = path;
  }

  /** Makes `template` known to the worker (compiled there now, and again by any replacement worker). */
  prepare(template: CompiledTemplate): void {
    if (this.#templates.has(template.handle)) return;
    this.#templates.set(template.handle, template);
    if (this.#worker) this.#worker.postMessage(compileMessage(template));
    else this.#ensureWorker(); // compiles every known template, this one included
  }

  release(template: CompiledTemplate): void {
    // An execution of it queued or running here is (or will be) sent to the worker, which must still know it.
    const handle = template.handle;
    if (this.#running?.template.handle === handle || this.#queue.some((job) => job.template.handle === handle)) return;
    if (!this.#templates.delete(handle)) return;
    this.#worker?.postMessage({ kind: 'release', key: handle } satisfies ToWorker);
  }

  execute(template: CompiledTemplate, input: Uint8Array, format: InputFormat, extra: Uint8Array | undefined, timeoutMs: number): Promise<Buffer> {
    this.prepare(template);
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, template, input, format, extra, timeoutMs, resolve, reject });
      if (!this.#running) this.#next();
    });
  }

  /** Stops the worker (gateway shutdown); queued executions fail. */
  async close(): Promise<void> {
    for (const job of this.#queue.splice(0)) job.reject(new TemplateExecuteError('the template executor was closed'));
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #next(): void {
    const job = this.#queue.shift();
    this.#running = job;
    if (!job) return;
    const message: ToWorker = { kind: 'execute', id: job.id, key: job.template.handle, input: job.input, format: job.format, extra: job.extra ?? null };
    this.#ensureWorker().postMessage(message);
    this.#startTimer(job);
  }

  /**
   * Bounds the running job: by its time limit once the worker has loaded its engine, before that by the worker's
   * start (WORKER_START_MS). A job waiting for a new worker is not charged for the seconds a busy machine takes to
   * load the WebAssembly module: the first transform after a start or a timeout failed with 500 under load.
   */
  #startTimer(job: PendingExecution): void {
    clearTimeout(this.#timer);
    if (this.#workerReady) this.#timer = setTimeout(() => this.#timedOut(job), job.timeoutMs);
    else this.#timer = setTimeout(() => this.#notStarted(job), WORKER_START_MS);
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { workerData: { path: this.#path } });
    worker.on('message', (reply: FromWorker) => this.#answered(worker, reply));
    worker.on('error', (error: Error) => this.#workerFailed(worker, error));
    // Never keeps the gateway process alive. After the listeners: adding a 'message' listener refs the worker again,
    // and a gateway that had run a template never exited after SIGTERM.
    worker.unref();
    for (const template of this.#templates.values()) worker.postMessage(compileMessage(template));
    this.#worker = worker;
    this.#workerReady = false;
    return worker;
  }

  #answered(worker: Worker, reply: FromWorker): void {
    if ('ready' in reply) {
      if (worker !== this.#worker) return;
      this.#workerReady = true;
      if (this.#running) this.#startTimer(this.#running);
      return;
    }
    const job = this.#running;
    if (!job || job.id !== reply.id) return; // an answer from a worker already replaced
    clearTimeout(this.#timer);
    if ('output' in reply) job.resolve(Buffer.from(reply.output.buffer, reply.output.byteOffset, reply.output.byteLength));
    else job.reject(reply.undecodable ? new BodyDecodeError(reply.error) : new TemplateExecuteError(reply.error));
    this.#next();
  }

  #timedOut(job: PendingExecution): void {
    this.#abandon(job, new TemplateTimeoutError(job.template.name, job.timeoutMs));
  }

  #notStarted(job: PendingExecution): void {
    this.#abandon(job, new TemplateExecuteError(`the template worker did not load its engine within ${WORKER_START_MS} ms`));
  }

  /** Fails the running job with `error` and terminates its worker (the only way to stop WebAssembly); the next runs on a fresh one. */
  #abandon(job: PendingExecution, error: Error): void {
    if (this.#running !== job) return;
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
    job.reject(error);
    this.#next();
  }

  #workerFailed(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    clearTimeout(this.#timer);
    this.#running?.reject(new TemplateExecuteError(`the template worker failed: ${error.message || String(error)}`));
    this.#next();
  }
}

function compileMessage(template: CompiledTemplate): ToWorker {
  return { kind: 'compile', key: template.handle, name: template.name, source: template.source };
}

let shared: TemplateRunner | undefined;

/**
 * The process's runner, started with the first template: the native engine process when its binary is there
 * (artefact.ts), else the WebAssembly worker. Throws TemplateEngineMissing.
 */
export function templateExecutor(): TemplateRunner {
  if (shared) return shared;
  const native = locateNativeTemplateEngine();
  shared = native ? new NativeTemplateExecutor(native) : new TemplateExecutor(locateTemplateEngine());
  return shared;
}
