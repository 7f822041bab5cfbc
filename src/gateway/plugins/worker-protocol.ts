// The messages between the plugin pool (plugin-pool.ts, the gateway thread) and its workers (plugin-worker.ts): the
// jobs handed in one turn of the gateway's event loop as one message, the answers of the jobs a worker ran from it as
// one message, and host requests one by one; declared apart so the pool never loads the worker's module. Jobs and
// answers travel as flat arrays of primitives (JobMessage, AnswerMessage), not arrays of objects: a structured clone
// writes and reads no property names then (measured: 0.2-0.5 µs less per job, 0.5-0.7 µs less per answer).
import type { MessagePort } from 'node:worker_threads';
import type { HostOp } from './js-api.ts';

/**
 * Int32 words of the shared signal: [0] the sequence number of the host reply posted, [1] the job running, [2] its
 * start, [3] the count of job messages posted, [4] the last job withdrawn.
 */
export const SIGNAL_WORDS = 5;
/** The word the worker sets to the id of the job it runs (0 between jobs). */
export const RUNNING_WORD = 1;
/** The word the worker sets, before RUNNING_WORD, to the time the job starts (clockMs). */
export const STARTED_WORD = 2;
/** The word the pool adds one to after posting jobs (and notifies): the worker waits on it, not in its event loop. */
export const POSTED_WORD = 3;
/**
 * The word the pool sets to the id of the last job it took back from a worker stuck on a call (to hand to another):
 * the worker skips every job up to it, answering it `withdrawn` (a worker's jobs come in increasing ids: the pool
 * gives a job its id each time it hands it, so a job handed again is not skipped). The worker sets RUNNING_WORD
 * before it reads this word, the pool this word before it reads RUNNING_WORD: when the pool still sees the stuck call
 * running, the worker will see the withdrawal. Once past it, the worker sets it back to 0 (none), unless the pool changed it meanwhile.
 */
export const WITHDRAWN_WORD = 4;

export interface WorkerSetup {
  /** Int32Array of SIGNAL_WORDS over a SharedArrayBuffer. */
  signal: SharedArrayBuffer;
  /** The answers of the worker's current message not yet posted (answer-journal.ts). */
  journal: SharedArrayBuffer;
  /** Where jobs arrive: a JobMessage per message, read with receiveMessageOnPort. */
  jobs: MessagePort;
  /** Where host replies arrive: {seq, value}. */
  replies: MessagePort;
  /** Time limit of one call, milliseconds (a host operation is waited for no longer). */
  timeoutMs: number;
  /** Longest answer of a call, or argument of a host operation, in characters (PluginPoolOptions.maxMessageChars). */
  maxMessageChars: number;
  /**
   * Whether the worker runs under Linux's SCHED_BATCH policy (when it shares the gateway thread's core): woken, it
   * waits for the gateway thread to block or use up its time slice instead of preempting it at once.
   */
  batchScheduling: boolean;
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

/** The jobs of one message, JOB_FIELDS entries each: id, script, args, source (undefined when not sent). */
export type JobMessage = (number | string | undefined)[];
export const JOB_FIELDS = 4;

/** Appends a job to a message, with its script's source when the worker lacks it. */
export function pushJob(message: JobMessage, job: WorkerJob, source: string | undefined): void {
  message.push(job.id, job.script, job.args, source);
}

/** The job at `index` (a multiple of JOB_FIELDS) of a message. */
export function jobAt(message: JobMessage, index: number): WorkerJob {
  const source = message[index + 3] as string | undefined;
  const job: WorkerJob = { id: message[index] as number, script: message[index + 1] as string, args: message[index + 2] as string };
  if (source !== undefined) job.source = source;
  return job;
}

/** The answer to one job; `withdrawn`: skipped, never run (the pool took it back, WITHDRAWN_WORD). */
export type WorkerAnswer =
  | { id: number; type: 'result'; value: string | undefined }
  | { id: number; type: 'error'; message: string; timedOut: boolean }
  | { id: number; type: 'withdrawn' };

/**
 * An answer as the worker writes it (posted, and in its journal, answer-journal.ts): 'R' + the value, 'U' (no value),
 * 'E' + an error's message, 'T' + a timeout's message, 'W' (withdrawn).
 */
export type AnswerText = string;

/** What an answer's text says. */
export function readAnswer(id: number, text: AnswerText): WorkerAnswer {
  const kind = text[0];
  if (kind === 'R') return { id, type: 'result', value: text.slice(1) };
  if (kind === 'U') return { id, type: 'result', value: undefined };
  if (kind === 'W') return { id, type: 'withdrawn' };
  return { id, type: 'error', message: text.slice(1), timedOut: kind === 'T' };
}

/** The answers of jobs a worker ran, in order: id, text, id, text... */
export type AnswerMessage = (number | AnswerText)[];

export type WorkerHostRequest = { id: number; type: 'host'; seq: number; op: HostOp; arg: string };

/** What a worker posts: the answers of jobs it ran, or one host request. */
export type WorkerMessage = AnswerMessage | WorkerHostRequest;

/** Scripts (contexts) one worker keeps; past it the least recently used is dropped (a reload changed many APIs). */
export const CONTEXTS_PER_WORKER = 64;

/**
 * Job ids are Int32 (they are written to shared words, where a larger number would not read back equal): after the
 * largest comes the smallest, and 0 (no job) is skipped.
 */
export function nextJobId(id: number): number {
  const next = (id + 1) | 0;
  return next === 0 ? 1 : next;
}

/** Whether job `id` is at or before job `last` (0: none), across the wrap of nextJobId. */
export function atOrBefore(id: number, last: number): boolean {
  return last !== 0 && ((id - last) | 0) <= 0;
}

/** The monotonic clock the pool and its workers share, in milliseconds, wrapped to an Int32 (compare by `(a - b) | 0`). */
export function clockMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return (seconds * 1000 + nanoseconds / 1e6) | 0;
}
