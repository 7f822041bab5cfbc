// JavaScript plugins off the event loop and out of the gateway's heap: a fixed pool of worker threads
// (plugin-worker.ts), each running plugins in node:vm contexts under a time limit per call and a heap limit per
// worker (resourceLimits). Calls are pipelined: up to PIPELINE_DEPTH calls are handed to a worker ahead of the one
// it runs, so under load it goes from one call to the next without waiting for the gateway thread, and the gateway
// thread takes the answers of several calls in one wake-up (a call handed off and answered one at a time costs
// about 16 µs of CPU in the two postMessage hand-offs; pipelined about 6). A worker runs its calls in the order it
// was given them, and says which one it runs in a shared word, so the time limit is the running call's: a call
// still running at its limit has its worker ended (Worker.terminate interrupts the JavaScript wherever it is: a
// loop, a microtask chain) and answered as timed out; the calls queued behind it, never started, go to a fresh
// worker. At most `workers` calls run at once, at most `queue` more wait (in the pool or handed ahead to a worker);
// beyond, a call fails at once. A worker that dies (out of memory) is replaced, failing only the call it was
// running. Scripts are sent to a worker once and compiled there once (the pool and the worker drop the same least
// recently used script, as they see the same calls in the same order). The host operations plugins ask for (HTTP,
// batch, keys, logs) are answered here by the caller's handler; the worker waits for them synchronously
// (plugin-worker.ts).
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { HostOp } from './js-api.ts';
import { CONTEXTS_PER_WORKER, RUNNING_WORD, SIGNAL_WORDS, type WorkerJob, type WorkerMessage, type WorkerSetup } from './worker-protocol.ts';

export interface PluginPoolOptions {
  workers: number;
  queue: number;
  /** Time limit of one call, milliseconds: past it the worker running it is ended. */
  timeoutMs: number;
  /** Heap limit of one worker (V8 old generation), megabytes. */
  memoryMb: number;
}

/** Calls handed to one worker at most (the one it runs and those queued behind it in its port). */
export const PIPELINE_DEPTH = 16;

/** Compiled once per worker, under `id` (plugin-spec.ts derives it from the source). */
export interface PluginScript {
  readonly id: string;
  readonly source: string;
}

/** Answers a plugin's host operation: the string handed back to the plugin, or undefined. Logs return nothing. */
export type HostHandler = (op: HostOp, arg: string) => Promise<string | undefined> | undefined;

export type PluginOutcome = { ok: true; value: string | undefined } | { ok: false; message: string; timedOut: boolean };

interface Pending {
  job: WorkerJob;
  script: PluginScript;
  host: HostHandler;
  resolve: (outcome: PluginOutcome) => void;
}

interface Slot {
  worker: Worker;
  /** Jobs handed during this turn of the event loop, posted together when it ends (#flush). */
  outbox: WorkerJob[];
  signal: Int32Array;
  replies: MessagePort;
  /** Scripts the worker holds, least recently used first (the worker's own order: it sees the same calls). */
  known: Set<string>;
  /** Handed to the worker, in order: the first is running (or about to). */
  jobs: Pending[];
  /** Armed while jobs are handed: fires when the first has had its time. */
  guard: NodeJS.Timeout | undefined;
}

export class PluginPool {
  readonly #options: PluginPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #waiting: Pending[] = [];
  #nextId = 1;
  #closed = false;
  /** Slots with jobs in their outbox, posted at the end of this turn of the event loop. */
  readonly #toFlush = new Set<Slot>();
  readonly #flush = (): void => {
    for (const slot of this.#toFlush) {
      if (this.#slots.includes(slot) && slot.outbox.length > 0) slot.worker.postMessage(slot.outbox);
      slot.outbox = [];
    }
    this.#toFlush.clear();
  };

  constructor(options: PluginPoolOptions) {
    this.#options = options;
  }

  get timeoutMs(): number {
    return this.#options.timeoutMs;
  }

  /** Runs one call (args: the JSON js-api.ts __gwCall reads). Never rejects. */
  call(script: PluginScript, args: string, host: HostHandler): Promise<PluginOutcome> {
    return new Promise((resolve) => {
      const pending: Pending = { job: { id: this.#nextId++, script: script.id, args }, script, host, resolve };
      const slot = this.#waiting.length === 0 ? this.#slotFor() : undefined;
      if (slot) this.#hand(slot, pending);
      else if (this.#queued() < this.#options.queue) this.#waiting.push(pending);
      else resolve({ ok: false, message: 'too many plugin calls waiting (jsvm_queue)', timedOut: false });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const stopping: PluginOutcome = { ok: false, message: 'the gateway is stopping', timedOut: false };
    for (const pending of this.#waiting.splice(0)) pending.resolve(stopping);
    const slots = this.#slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.guard);
      for (const pending of slot.jobs.splice(0)) pending.resolve(stopping);
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Calls waiting: in the pool, and handed to a worker behind the one it runs. */
  #queued(): number {
    let queued = this.#waiting.length;
    for (const slot of this.#slots) queued += Math.max(0, slot.jobs.length - 1);
    return queued;
  }

  /** An idle worker (started if the pool has room), else the least busy one with room in its pipeline. */
  #slotFor(): Slot | undefined {
    if (this.#closed) return undefined;
    let best: Slot | undefined;
    for (const slot of this.#slots) if (!best || slot.jobs.length < best.jobs.length) best = slot;
    if (best?.jobs.length === 0) return best;
    if (this.#slots.length < this.#options.workers) return this.#startWorker();
    // Handing a call ahead still respects jsvm_queue: it waits, in the worker's port instead of the pool.
    if (best && best.jobs.length < PIPELINE_DEPTH && this.#queued() < this.#options.queue) return best;
    return undefined;
  }

  #startWorker(): Slot {
    const shared = new SharedArrayBuffer(4 * SIGNAL_WORDS);
    const channel = new MessageChannel();
    const setup: WorkerSetup = { signal: shared, replies: channel.port2, timeoutMs: this.#options.timeoutMs };
    const worker = new Worker(new URL('./plugin-worker.ts', import.meta.url), {
      workerData: setup,
      transferList: [channel.port2],
      resourceLimits: { maxOldGenerationSizeMb: this.#options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, this.#options.memoryMb / 8), stackSizeMb: 4 },
    });
    const slot: Slot = { worker, outbox: [], signal: new Int32Array(shared), replies: channel.port1, known: new Set(), jobs: [], guard: undefined };
    worker.on('message', (message: WorkerMessage) => this.#message(slot, message));
    worker.on('error', (error: Error) => this.#failed(slot, describeWorkerError(error)));
    worker.on('exit', () => this.#failed(slot, 'the plugin worker exited'));
    worker.unref(); // after the listeners (a 'message' listener refs the worker again)
    channel.port1.unref();
    this.#slots.push(slot);
    return slot;
  }

  #hand(slot: Slot, pending: Pending): void {
    slot.jobs.push(pending);
    // The source goes with the first call of a script on this worker; both sides then keep it as most recently used.
    const known = slot.known.delete(pending.script.id);
    slot.known.add(pending.script.id);
    if (slot.known.size > CONTEXTS_PER_WORKER) slot.known.delete(slot.known.values().next().value!);
    slot.outbox.push(known ? pending.job : { ...pending.job, source: pending.script.source });
    if (this.#toFlush.size === 0) setImmediate(this.#flush);
    this.#toFlush.add(slot);
    if (slot.jobs.length === 1) this.#arm(slot);
  }

  /** The guard of the slot's first call: its whole time limit from now (it started at the earliest now). */
  #arm(slot: Slot): void {
    if (slot.guard) slot.guard.refresh();
    else {
      slot.guard = setTimeout(() => this.#overrun(slot), this.#options.timeoutMs);
      slot.guard.unref();
    }
  }

  #overrun(slot: Slot): void {
    const first = slot.jobs[0];
    if (!first || !this.#slots.includes(slot)) return;
    // The first call answered and its answer is on its way: the next one's time starts then.
    if (Atomics.load(slot.signal, RUNNING_WORD) !== first.job.id) return this.#arm(slot);
    this.#failed(slot, `JS middleware timed out after ${this.#options.timeoutMs}ms`, true);
    void slot.worker.terminate();
  }

  #message(slot: Slot, message: WorkerMessage): void {
    const pending = slot.jobs.find((entry) => entry.job.id === message.id);
    if (!pending) return;
    if (message.type === 'host') {
      const answer = pending.host(message.op, message.arg);
      if (answer === undefined) {
        if (message.op !== 'log' && message.op !== 'rawlog') this.#reply(slot, message.seq, undefined);
        return;
      }
      answer.then(
        (value) => this.#reply(slot, message.seq, value),
        () => this.#reply(slot, message.seq, undefined),
      );
      return;
    }
    // A worker answers its calls in the order given: this is the first.
    slot.jobs.shift();
    if (slot.jobs.length > 0) this.#arm(slot);
    else {
      clearTimeout(slot.guard);
      slot.guard = undefined;
    }
    pending.resolve(message.type === 'result' ? { ok: true, value: message.value } : { ok: false, message: message.message, timedOut: message.timedOut });
    this.#dispatch();
  }

  #reply(slot: Slot, seq: number, value: string | undefined): void {
    if (!this.#slots.includes(slot)) return;
    slot.replies.postMessage({ seq, value });
    Atomics.store(slot.signal, 0, seq);
    Atomics.notify(slot.signal, 0);
  }

  /** The worker is gone: its running call fails; the calls behind it never started and wait for another worker. */
  #failed(slot: Slot, message: string, timedOut = false): void {
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    slot.replies.close();
    clearTimeout(slot.guard);
    const [running, ...behind] = slot.jobs.splice(0);
    this.#waiting.unshift(...behind);
    running?.resolve({ ok: false, message, timedOut });
    this.#dispatch();
  }

  #dispatch(): void {
    while (this.#waiting.length > 0) {
      const slot = this.#slotFor();
      if (!slot) return;
      this.#hand(slot, this.#waiting.shift()!);
    }
  }
}

function describeWorkerError(error: Error): string {
  return (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? 'the plugin worker ran out of memory (jsvm_memory_mb)'
    : `the plugin worker failed: ${error.message}`;
}
