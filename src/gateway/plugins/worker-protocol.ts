// The messages between the plugin pool (plugin-pool.ts, the gateway thread) and its workers (plugin-worker.ts): a
// job per call, the worker's result, error, host request or request for a script's source again; declared apart so
// the pool never loads the worker's module.
import type { MessagePort } from 'node:worker_threads';
import type { HostOp } from './js-api.ts';

export interface WorkerSetup {
  /** Int32Array over a SharedArrayBuffer: the gateway sets [0] to the sequence number of the reply it posted. */
  signal: SharedArrayBuffer;
  /** Where host replies arrive: {seq, value}. */
  replies: MessagePort;
}

export type WorkerJob = {
  id: number;
  script: string;
  /** Sent the first time this worker is given the script. */
  source?: string;
  /** JSON of the call (js-api.ts __gwCall). */
  args: string;
  timeoutMs: number;
};

export type WorkerMessage =
  | { id: number; type: 'result'; value: string | undefined }
  | { id: number; type: 'error'; message: string; timedOut: boolean }
  | { id: number; type: 'host'; seq: number; op: HostOp; arg: string }
  /** The job named a script this worker no longer holds (or never got): send it again with its source. */
  | { id: number; type: 'missing' };

/** Scripts (contexts) one worker keeps; past it the least recently used is dropped (a reload changed many APIs). */
export const CONTEXTS_PER_WORKER = 64;
