// JavaScript plugins off the event loop and out of the gateway's heap: a fixed pool of worker threads
// (plugin-worker.ts), each running plugins in node:vm contexts under a time limit per call and a heap limit per
// worker (resourceLimits). A call still running at its limit has its worker ended (Worker.terminate interrupts the
// JavaScript wherever it is: a loop, a microtask chain) and answered as timed out; a fresh worker takes the next call. At most `workers` calls run at once, at most `queue` more wait in
// arrival order; beyond, a call fails at once. A worker that dies (out of memory) is replaced, failing only the call
// it was running. Scripts are sent to
// a worker once and compiled there once. The host operations plugins ask for (HTTP, batch, keys, logs) are
// answered here by the caller's handler; the worker waits for them synchronously (plugin-worker.ts).
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { HostOp } from './js-api.ts';
import { CONTEXTS_PER_WORKER, type WorkerJob, type WorkerMessage, type WorkerSetup } from './worker-protocol.ts';

export interface PluginPoolOptions {
  workers: number;
  queue: number;
  /** Time limit of one call, milliseconds: past it the worker running it is ended. */
  timeoutMs: number;
  /** Heap limit of one worker (V8 old generation), megabytes. */
  memoryMb: number;
}

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
  signal: Int32Array;
  replies: MessagePort;
  known: Set<string>;
  job: Pending | undefined;
  guard: NodeJS.Timeout | undefined;
}

export class PluginPool {
  readonly #options: PluginPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #waiting: Pending[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: PluginPoolOptions) {
    this.#options = options;
  }

  get timeoutMs(): number {
    return this.#options.timeoutMs;
  }

  /** Runs one call (args: the JSON js-api.ts __gwCall reads). Never rejects. */
  call(script: PluginScript, args: string, host: HostHandler): Promise<PluginOutcome> {
    return new Promise((resolve) => {
      const pending: Pending = { job: { id: this.#nextId++, script: script.id, args, timeoutMs: this.#options.timeoutMs }, script, host, resolve };
      const slot = this.#idleSlot();
      if (slot) this.#start(slot, pending);
      else if (this.#waiting.length < this.#options.queue) this.#waiting.push(pending);
      else resolve({ ok: false, message: 'too many plugin calls waiting (jsvm_queue)', timedOut: false });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#waiting.splice(0)) pending.resolve({ ok: false, message: 'the gateway is stopping', timedOut: false });
    const slots = this.#slots.splice(0);
    for (const slot of slots) this.#finish(slot, { ok: false, message: 'the gateway is stopping', timedOut: false });
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #idleSlot(): Slot | undefined {
    const idle = this.#slots.find((slot) => !slot.job);
    if (idle || this.#slots.length >= this.#options.workers || this.#closed) return idle;
    const shared = new SharedArrayBuffer(4);
    const channel = new MessageChannel();
    const setup: WorkerSetup = { signal: shared, replies: channel.port2 };
    const worker = new Worker(new URL('./plugin-worker.ts', import.meta.url), {
      workerData: setup,
      transferList: [channel.port2],
      resourceLimits: { maxOldGenerationSizeMb: this.#options.memoryMb, maxYoungGenerationSizeMb: Math.max(4, this.#options.memoryMb / 8), stackSizeMb: 4 },
    });
    const slot: Slot = { worker, signal: new Int32Array(shared), replies: channel.port1, known: new Set(), job: undefined, guard: undefined };
    worker.on('message', (message: WorkerMessage) => this.#message(slot, message));
    worker.on('error', (error: Error) => this.#failed(slot, describeWorkerError(error)));
    worker.on('exit', () => this.#failed(slot, 'the plugin worker exited'));
    worker.unref(); // after the listeners (a 'message' listener refs the worker again)
    channel.port1.unref();
    this.#slots.push(slot);
    return slot;
  }

  #start(slot: Slot, pending: Pending): void {
    slot.job = pending;
    // The source goes with the first call of a script on this worker; the worker asks again if it dropped it.
    const job = slot.known.has(pending.script.id) ? pending.job : { ...pending.job, source: pending.script.source };
    slot.known.add(pending.script.id);
    if (slot.known.size > CONTEXTS_PER_WORKER) slot.known.delete(slot.known.values().next().value!);
    slot.guard = setTimeout(() => {
      this.#failed(slot, `JS middleware timed out after ${pending.job.timeoutMs}ms`, true);
      void slot.worker.terminate();
    }, pending.job.timeoutMs);
    slot.guard.unref();
    slot.worker.postMessage(job);
  }

  #message(slot: Slot, message: WorkerMessage): void {
    const pending = slot.job;
    if (!pending || pending.job.id !== message.id) return;
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
    if (message.type === 'missing') {
      slot.known.delete(pending.script.id);
      slot.worker.postMessage({ ...pending.job, source: pending.script.source });
      return;
    }
    this.#finish(slot, message.type === 'result' ? { ok: true, value: message.value } : { ok: false, message: message.message, timedOut: message.timedOut });
    this.#dispatch();
  }

  #reply(slot: Slot, seq: number, value: string | undefined): void {
    if (!this.#slots.includes(slot)) return;
    slot.replies.postMessage({ seq, value });
    Atomics.store(slot.signal, 0, seq);
    Atomics.notify(slot.signal, 0);
  }

  #finish(slot: Slot, outcome: PluginOutcome): void {
    clearTimeout(slot.guard);
    slot.guard = undefined;
    const pending = slot.job;
    slot.job = undefined;
    pending?.resolve(outcome);
  }

  #failed(slot: Slot, message: string, timedOut = false): void {
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    slot.replies.close();
    this.#finish(slot, { ok: false, message, timedOut });
    this.#dispatch();
  }

  #dispatch(): void {
    while (this.#waiting.length > 0) {
      const slot = this.#idleSlot();
      if (!slot) return;
      this.#start(slot, this.#waiting.shift()!);
    }
  }
}

function describeWorkerError(error: Error): string {
  return (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? 'the plugin worker ran out of memory (jsvm_memory_mb)'
    : `the plugin worker failed: ${error.message}`;
}
