// The reconcile loop (controller-runtime's internal/controller, in a few dozen lines). Workers take keys from the
// work queue and call the reconciler; what happens next depends only on the outcome:
//   returned (no requeue)      forget the key's failures
//   returned requeueAfterMs    forget its failures, add it back after that delay
//   threw a TerminalError      log it; do not retry (the input must change first)
//   threw anything else        log it with its stack (a bug is contained to this key); retry rate-limited
//   ran past reconcileTimeoutMs  its signal aborts and it counts as an error
// One key is never reconciled twice at once (the queue guarantees it); many events for one key collapse into one
// reconcile. run() returns after its signal aborts and the reconciles in flight have finished (drain).
import type { Logger } from 'pino';
import { WorkQueue } from './workqueue.ts';

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
  /** Called with how long each key waited in the queue before a worker took it. */
  observeQueueWait?: (ms: number) => void;
}

class ReconcileTimeout extends Error {}

export class Controller {
  readonly name: string;
  readonly queue: WorkQueue<string>;
  readonly #reconciler: Reconciler;
  readonly #options: ControllerOptions;

  constructor(reconciler: Reconciler, options: ControllerOptions) {
    this.name = options.name;
    this.queue = new WorkQueue<string>(undefined, undefined, options.observeQueueWait);
    this.#reconciler = reconciler;
    this.#options = options;
  }

  enqueue(key: string): void {
    this.queue.add(key);
  }

  async run(signal: AbortSignal): Promise<void> {
    const workers = Array.from({ length: this.#options.workers ?? 1 }, () => this.#worker());
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await this.queue.shutDownWithDrain();
    await Promise.all(workers);
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.#process(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  async #process(key: string): Promise<void> {
    const { log, observe } = this.#options;
    const started = Date.now();
    const abort = new AbortController();
    const timeoutMs = this.#options.reconcileTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new ReconcileTimeout(`reconcile ran longer than ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([this.#reconciler.reconcile(key, abort.signal), timeout]);
      this.queue.forget(key);
      if (result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
        this.queue.addAfter(key, result.requeueAfterMs);
        observe?.('requeue', Date.now() - started);
      } else {
        observe?.('success', Date.now() - started);
      }
    } catch (error) {
      if (error instanceof TerminalError) {
        this.queue.forget(key);
        log.error({ controller: this.name, key, err: error.message }, 'reconcile failed for good: waiting for a change');
        observe?.('terminal', Date.now() - started);
      } else {
        const retries = this.queue.numRequeues(key);
        log.warn({ controller: this.name, key, retries, err: error instanceof Error ? error.stack : String(error) }, 'reconcile failed: retrying');
        this.queue.addRateLimited(key);
        observe?.('error', Date.now() - started);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
