// One worker of the plugin pool (plugin-pool.ts) as the pool sees it: the thread (plugin-worker.ts) started with its
// shared words, answer journal, job and reply ports and heap limit, and what the pool tracks of it (the calls handed,
// the scripts it holds, its time-limit guard, whether a long call holds it). Also the types of a call the pool runs.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { JOURNAL_BYTES } from './answer-journal.ts';
import type { HostOp } from './js-api.ts';
import { SIGNAL_WORDS, type JobMessage, type WorkerJob, type WorkerMessage, type WorkerSetup } from './worker-protocol.ts';

/** Compiled once per worker, under `id` (plugin-spec.ts derives it from the source). */
export interface PluginScript {
  readonly id: string;
  readonly source: string;
}

/** Answers a plugin's host operation: the string handed back to the plugin, or undefined. Logs return nothing. */
export type HostHandler = (op: HostOp, arg: string) => Promise<string | undefined> | undefined;

export type PluginOutcome = { ok: true; value: string | undefined } | { ok: false; message: string; timedOut: boolean };

export interface Pending {
  job: WorkerJob;
  script: PluginScript;
  /** The API whose call it is: the pool's queue and extra workers are shared fairly between APIs. */
  owner: string;
  host: HostHandler;
  resolve: (outcome: PluginOutcome) => void;
}

export interface Slot {
  worker: Worker;
  signal: Int32Array;
  journal: SharedArrayBuffer;
  /** Where jobs go (the worker reads them after POSTED_WORD changes). */
  jobPort: MessagePort;
  replies: MessagePort;
  /** Scripts the worker holds, least recently used first (the worker's own order: it sees the same calls). */
  known: Set<string>;
  /** Handed to the worker and not answered yet, in order. */
  jobs: Pending[];
  /** Jobs handed in this turn of the event loop, posted together when it ends. */
  outbox: JobMessage;
  /** Armed while jobs are handed: fires when the running one may have had its time. */
  guard: NodeJS.Timeout | undefined;
  /** The worker is being ended (taken out of the pool): its calls are settled when it has exited. */
  ending: boolean;
  /** The id of the call whose time limit ended the worker. */
  overran: number | undefined;
  /** Host operations asked by the worker and not answered yet (it waits for them). */
  hostWaits: number;
  /** Started beyond `workers`, for other APIs' calls while workers are held by long calls. */
  extra: boolean;
  /** The id of the call found running past stuckMs: nothing more is handed to this worker until it is answered. */
  stuck: number | undefined;
}

/** What a worker is started with (the pool's options with their defaults). */
export interface SlotSettings {
  timeoutMs: number;
  memoryMb: number;
  maxMessageChars: number;
  batchScheduling: boolean;
}

/** What the pool hears of a worker: its messages, and its end (an error first, or the exit). */
export interface SlotEvents {
  message(message: WorkerMessage): void;
  exited(message: string): void;
}

export function startSlot(settings: SlotSettings, extra: boolean, events: SlotEvents): Slot {
  const shared = new SharedArrayBuffer(4 * SIGNAL_WORDS);
  const journal = new SharedArrayBuffer(JOURNAL_BYTES);
  const channel = new MessageChannel();
  const jobs = new MessageChannel();
  const setup: WorkerSetup = {
    signal: shared,
    journal,
    jobs: jobs.port2,
    replies: channel.port2,
    timeoutMs: settings.timeoutMs,
    maxMessageChars: settings.maxMessageChars,
    batchScheduling: settings.batchScheduling,
  };
  const worker = new Worker(new URL('./plugin-worker.ts', import.meta.url), {
    workerData: setup,
    transferList: [jobs.port2, channel.port2],
    // The worker's refusal of import() (plugin-worker.ts refuseImport) is called only with this flag.
    execArgv: [...process.execArgv, '--experimental-vm-modules'],
    resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb, maxYoungGenerationSizeMb: Math.max(4, settings.memoryMb / 8), stackSizeMb: 4 },
  });
  const slot: Slot = {
    worker,
    signal: new Int32Array(shared),
    journal,
    jobPort: jobs.port1,
    replies: channel.port1,
    known: new Set(),
    jobs: [],
    outbox: [],
    guard: undefined,
    ending: false,
    overran: undefined,
    hostWaits: 0,
    extra,
    stuck: undefined,
  };
  worker.on('message', (message: WorkerMessage) => events.message(message));
  // Both come after the messages the worker posted (Node delivers them first); the first one settles its calls.
  worker.on('error', (error: Error) => events.exited(describeWorkerError(error)));
  worker.on('exit', () => events.exited('the plugin worker exited'));
  worker.unref(); // after the listeners (a 'message' listener refs the worker again)
  channel.port1.unref();
  jobs.port1.unref();
  return slot;
}

function describeWorkerError(error: Error): string {
  return (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? 'the plugin worker ran out of memory (jsvm_memory_mb)'
    : `the plugin worker failed: ${error.message}`;
}
