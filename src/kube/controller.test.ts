// The controller's outcome table: what each way a reconcile can end does to its key (retried or not, when), and
// the invariant that one key is never in two reconciles at once, even when a reconcile runs past its timeout.
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, ReconcileTimeoutError, TerminalError, type ReconcileOutcome, type Reconciler } from './controller.ts';

const log = pino({ level: 'silent' });

/** Runs a controller over `reconciler` until the test ends; `outcomes` lists what each reconcile ended with. */
function started(reconciler: Reconciler, options: { reconcileTimeoutMs?: number; workers?: number } = {}) {
  const outcomes: ReconcileOutcome[] = [];
  const controller = new Controller(reconciler, { name: 'test', log, observe: (outcome) => outcomes.push(outcome), ...options });
  const stop = new AbortController();
  const halt = new AbortController();
  const running = controller.run(stop.signal, { halt: halt.signal });
  stopping.push(async () => {
    stop.abort();
    halt.abort();
    await running;
  });
  return { controller, outcomes, halt, stop, running };
}

const stopping: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stopping.splice(0)) await stop();
});

describe('Controller outcomes', () => {
  it('success: forgets the key and does not run it again', async () => {
    const calls: string[] = [];
    const { controller, outcomes } = started({ reconcile: async (key) => void calls.push(key) });
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(outcomes).toEqual(['success']));
    expect(calls).toEqual(['ns/a']);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
    expect(controller.queue.length + controller.queue.delayedLength).toBe(0);
  });

  it('requeue-after: runs the key again after the delay it asked for, without counting a failure', async () => {
    let calls = 0;
    const { controller, outcomes } = started({ reconcile: async () => (++calls === 1 ? { requeueAfterMs: 30 } : undefined) });
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(outcomes).toEqual(['requeue', 'success']));
    expect(calls).toBe(2);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('terminal error: not retried until the key is enqueued again', async () => {
    let calls = 0;
    const { controller, outcomes } = started({
      reconcile: async () => {
        calls++;
        throw new TerminalError('the spec cannot work');
      },
    });
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(outcomes).toEqual(['terminal']));
    expect(controller.queue.length + controller.queue.delayedLength).toBe(0);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
    controller.enqueue('ns/a'); // the resource changed
    await vi.waitFor(() => expect(outcomes).toEqual(['terminal', 'terminal']));
    expect(calls).toBe(2);
  });

  it('error: retried with a growing backoff until it succeeds, then the failures are forgotten', async () => {
    const requeuesSeen: number[] = [];
    let calls = 0;
    const { controller, outcomes } = started({
      reconcile: async (key) => {
        requeuesSeen.push(controller.queue.numRequeues(key));
        if (++calls < 3) throw new Error('gateway unavailable');
      },
    });
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(outcomes).toEqual(['error', 'error', 'success']));
    expect(requeuesSeen).toEqual([0, 1, 2]);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('panic: a synchronous throw of a non-Error is contained to its key and retried; other keys go on', async () => {
    const calls: string[] = [];
    let panicked = false;
    const { controller, outcomes } = started({
      reconcile: (key) => {
        calls.push(key);
        if (key === 'ns/bad' && !panicked) {
          panicked = true;
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the point: a reconciler that throws a non-Error, synchronously
          throw 'not an Error';
        }
        return Promise.resolve();
      },
    });
    controller.enqueue('ns/bad');
    controller.enqueue('ns/good');
    await vi.waitFor(() => expect(outcomes.filter((o) => o === 'success')).toHaveLength(2));
    expect(outcomes).toContain('error');
    expect(calls.sort()).toEqual(['ns/bad', 'ns/bad', 'ns/good']);
  });

  it('timeout: aborts the run, and the key is not started again until the aborted run has settled', async () => {
    let active = 0;
    let maxActive = 0;
    let entries = 0;
    const aborted: unknown[] = [];
    let settleFirst!: () => void;
    const firstMaySettle = new Promise<void>((resolve) => (settleFirst = resolve));
    const { controller, outcomes } = started(
      {
        reconcile: async (_key, signal) => {
          active++;
          entries++;
          maxActive = Math.max(maxActive, active);
          try {
            if (entries > 1) return;
            await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
            aborted.push(signal.reason);
            await firstMaySettle; // a reconciler slow to notice: cleanup still running after the abort
            throw signal.reason;
          } finally {
            active--;
          }
        },
      },
      { reconcileTimeoutMs: 30, workers: 2 },
    );
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(aborted).toHaveLength(1));
    expect(aborted[0]).toBeInstanceOf(ReconcileTimeoutError);
    controller.enqueue('ns/a'); // a new event for the key while its aborted run is still winding down
    // The key stays in processing: nothing hands it to the idle second worker.
    expect(controller.queue.processingCount).toBe(1);
    expect(controller.queue.length).toBe(0);
    expect(entries).toBe(1);
    settleFirst();
    await vi.waitFor(() => expect(outcomes.slice(0, 2)).toEqual(['error', 'success']));
    expect(entries).toBeGreaterThanOrEqual(2);
    expect(maxActive).toBe(1);
  });

  it('timeout, then the run resolves: counted an error and retried, as the timeout row says', async () => {
    let entries = 0;
    const { controller, outcomes } = started(
      {
        reconcile: async (_key, signal) => {
          entries++;
          if (entries > 1) return;
          // Returns (does not throw) once aborted: a reconciler that just stops early.
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        },
      },
      { reconcileTimeoutMs: 30 },
    );
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(outcomes).toEqual(['error', 'success']));
    expect(entries).toBe(2);
  });

  it('halt (a lost Lease): aborts the run in flight at once and retries nothing', async () => {
    let signalSeen: AbortSignal | undefined;
    const { controller, outcomes, halt, stop, running } = started({
      reconcile: (_key, signal) => {
        signalSeen = signal;
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      },
    });
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(signalSeen).toBeDefined());
    halt.abort(new Error('leadership lost'));
    stop.abort();
    await running;
    expect(signalSeen!.aborted).toBe(true);
    expect(outcomes).toEqual(['error']);
    expect(controller.queue.delayedLength).toBe(0);
  });
});
