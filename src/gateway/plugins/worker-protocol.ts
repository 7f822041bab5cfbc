// The messages between the plugin pool (plugin-pool.ts, the gateway thread) and its workers (plugin-worker.ts): a
// job per call, the worker's result, error or host request; declared apart so the pool never loads the worker's
// module.
import type { MessagePort } from 'node:worker_threads';
import type { HostOp } from './js-api.ts';

/** Int32 words of the shared signal: [0] the sequence number of the host reply posted, [1] the job running. */
export const SIGNAL_WORDS = 2;
/** The word the worker sets to the id of the job it runs (0 between jobs). */
export const RUNNING_WORD = 1;

export interface WorkerSetup {
  /** Int32Array of SIGNAL_WORDS over a SharedArrayBuffer. */
  signal: SharedArrayBuffer;
  /** Where host replies arrive: {seq, value}. */
  replies: MessagePort;
  /** Time limit of one call, milliseconds (a host operation is waited for no longer). */
  timeoutMs: number;
  /** Longest answer of a call, or argument of a host operation, in characters (PluginPoolOptions.maxMessageChars). */
  maxMessageChars: number;
}

/** A plugin's log line is cut to this many characters (100 lines of any length per call would flood the log). */
export const LOG_MESSAGE_CHARS = 8192;

export type WorkerJob = {
  id: number;
  script: string;
  /** Sent the first time this worker is given the script (or again after it dropped it). */
  source?: string;
  /** JSON of the call (js-api.ts __gwCall). */
  args: string;
};

export type WorkerMessage =
  | { id: number; type: 'result'; value: string | undefined }
  | { id: number; type: 'error'; message: string; timedOut: boolean }
  | { id: number; type: 'host'; seq: number; op: HostOp; arg: string };

/** Scripts (contexts) one worker keeps; past it the least recently used is dropped (a reload changed many APIs). */
export const CONTEXTS_PER_WORKER = 64;
