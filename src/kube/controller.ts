// The reconcile loop (controller-runtime's internal/controller, in a few dozen lines). Workers take keys from the
// work queue and call the reconciler with an AbortSignal it must pass to every request it makes; what happens next
// depends only on the outcome:
//   returned (no requeue)        forget the key's failures
//   returned requeueAfterMs      forget its failures, add it back after that delay
//   threw a TerminalError        log it; do not retry (the input must change first)
//   threw anything else          log it with its stack (a bug, even a throw of a non-Error or a synchronous throw,
//                                is contained to this key); retry rate-limited
//   ran past reconcileTimeoutMs  its signal aborts; the worker WAITS for the run to settle (the key stays in
//                                processing, so it is never reconciled twice at once) and counts it as an error
//                                and retries it, even when the run then resolves (its work was cut short)
//   halted (lost Lease)          its signal aborts at once; nothing is retried (the queue is shutting down)
// One key is never reconciled twice at once (the queue guarantees it while the worker holds the key, and the
// worker holds it until the reconcile's promise settles); many events for one key collapse into one reconcile.
// run() returns after its signal aborts and the reconciles in flight have finished (drain); the halt signal
// given to run() aborts the reconciles in flight instead of letting them finish.
// Each reconcile gets a reconcileID (a UUID, as controller-runtime draws one): the controller's own lines about it
// carry it, and the reconcile runs inside its scope (reconcile-id.ts) so its log lines, Events and gateway writes do.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { inReconcile } from './reconcile-id.ts';
import { WorkQueue, type QueueHooks } from './workqueue.ts';

export interface ReconcileResult {
  requeueAfterMs?: number;
}

export interface Reconciler {
  reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult | void>;
}

/** A failure retrying cannot fix. */
export class TerminalError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

export type ReconcileOutcome = 'success' | 'requeue' | 'error' | 'terminal';

export interface ControllerOptions {
  name: string;
  /** Reconciles running at once. Default 1. */
  workers?: number;
  /** Longest a reconcile may run before it is aborted and retried. Default 60 s. */
  reconcileTimeoutMs?: number;
  log: Logger;
  /** Called after every reconcile (metrics). */
  observe?: (outcome: ReconcileOutcome, durationMs: number) => void;
  /** The work queue's metrics hooks (workqueue_* series, the wait before a worker took a key). */
  queueHooks?: QueueHooks;
}

/** The reason a reconcile's signal aborts when it ran past reconcileTimeoutMs. */
export class ReconcileTimeoutError extends Error {
  readonly code = 'reconcile_timeout';
  constructor(timeoutMs: number) {
    super(`reconcile ran longer than ${timeoutMs} ms: aborted`);
    this.name = 'ReconcileTimeoutError';
  }
}

export interface RunOptions {
  /** Aborts the reconciles in flight (a lost Lease): they must stop writing at once. */
  halt?: AbortSignal;
}

export class Controller {
  readonly name: string;
  readonly queue: WorkQueue<string>;
  readonly #reconciler: Reconciler;
  readonly #options: ControllerOptions;

  constructor(reconciler: Reconciler, options: ControllerOptions) {
    this.name = options.name;
    this.queue = new WorkQueue<string>(undefined, undefined, options.queueHooks);
    this.#reconciler = reconciler;
    this.#options = options;
  }

  enqueue(key: string): void {
    this.queue.add(key);
  }

  async run(signal: AbortSignal, options: RunOptions = {}): Promise<void> {
    const workers = Array.from({ length: this.#options.workers ?? 1 }, () => this.#worker(options.halt));
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await this.queue.shutDownWithDrain();
    await Promise.all(workers);
  }

  async #worker(halt: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.#process(key, halt);
      } finally {
        this.queue.done(key);
      }
    }
  }

  #process(key: string, halt: AbortSignal | undefined): Promise<void> {
    const reconcileID = randomUUID();
    const log = this.#options.log.child({ controller: this.name, reconcileID });
    return inReconcile(reconcileID, () => this.#reconcile(key, halt, log), `${this.name} ${key}`);
  }

  async #reconcile(key: string, halt: AbortSignal | undefined, log: Logger): Promise<void> {
    const { observe } = this.#options;
    const started = Date.now();
    const timeoutMs = this.#options.reconcileTimeoutMs ?? 60_000;
    const deadline = new AbortController();
    const signal = halt ? AbortSignal.any([deadline.signal, halt]) : deadline.signal;
    const timer = setTimeout(() => {
      log.warn({ key, timeoutMs }, 'reconcile ran past its timeout: aborting it and waiting for it to stop');
      deadline.abort(new ReconcileTimeoutError(timeoutMs));
    }, timeoutMs);
    let result: ReconcileResult | void;
    try {
      // Awaited to the end, never raced: the key is done only once this run has settled.
      result = await this.#reconciler.reconcile(key, signal);
    } catch (thrown) {
      const error: unknown = deadline.signal.aborted ? deadline.signal.reason : thrown;
      this.#failed(log, key, error, halt?.aborted === true, started);
      return;
    } finally {
      clearTimeout(timer);
    }
    // Resolved after its abort (a reconciler that returns early on an aborted signal): cut short all the same.
    if (deadline.signal.aborted || halt?.aborted) {
      this.#failed(log, key, deadline.signal.aborted ? deadline.signal.reason : halt?.reason, halt?.aborted === true, started);
      return;
    }
    this.queue.forget(key);
    const durationMs = Date.now() - started;
    if (result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
      this.queue.addAfter(key, result.requeueAfterMs);
      observe?.('requeue', durationMs);
      log.debug({ key, durationMs, requeueAfterMs: result.requeueAfterMs }, 'reconcile done: requeued after a delay');
    } else {
      observe?.('success', durationMs);
      log.debug({ key, durationMs }, 'reconcile done');
    }
  }

  #failed(log: Logger, key: string, error: unknown, halted: boolean, started: number): void {
    const { observe } = this.#options;
    if (halted) {
      log.warn({ key }, 'reconcile halted: this replica stopped leading');
      observe?.('error', Date.now() - started);
      return;
    }
    if (error instanceof TerminalError) {
      this.queue.forget(key);
      log.error({ key, err: error.message }, 'reconcile failed for good: waiting for a change');
      observe?.('terminal', Date.now() - started);
      return;
    }
    const retries = this.queue.numRequeues(key);
    log.warn({ key, retries, err: error instanceof Error ? error.stack : String(error) }, 'reconcile failed: retrying');
    this.queue.addRateLimited(key);
    observe?.('error', Date.now() - started);
  }
}
