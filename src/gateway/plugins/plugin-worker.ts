// One worker thread of the plugin pool (plugin-pool.ts): runs JavaScript plugins in node:vm contexts, one call at a
// time, in the order the pool handed them (a message carries the calls of one turn of the gateway's event loop; the
// worker waits for messages on a shared word, never returning to its event loop), with
// the running call's id and start in shared words (the pool's time limit reads them). The answers of a message are
// posted together once its calls ran, and kept meanwhile in the shared journal (answer-journal.ts), so a worker ended
// in the middle of a message loses none. Each script (Tyk's JavaScript API, js-api.ts, then an API's plugin sources)
// is compiled and run once per worker, into a context of its own, and kept for the calls that name it (a script that
// fails to compile is kept as its error, answered to each call: the pool counts it as held); a call's microtasks run
// inside it. The time limit is the pool's: it ends this worker when a call overruns (a vm `timeout` starts a watchdog
// thread per call, about 0.3 ms each, more than the rest of a call). Contexts have no require, process, module or
// timers: only what js-api.ts defines. The host operations that must answer synchronously (TykMakeHttpRequest,
// TykBatchRequest, TykGetKeyData, TykSetKeyData) are asked of the gateway thread and waited for with Atomics.wait on a
// shared word, the reply read with receiveMessageOnPort, never past the call's deadline. The worker's heap is bounded
// by the pool's resourceLimits: a plugin that exhausts it ends this worker, not the gateway. What goes to the gateway
// thread is bounded too: a call's answer and a host operation's argument (maxMessageChars), a log line
// (LOG_MESSAGE_CHARS, at most LOGS_PER_CALL of them).
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { types } from 'node:util';
import { constants as vmConstants, createContext, Script, type Context } from 'node:vm';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { JS_API_SOURCE, type HostOp } from './js-api.ts';
import { AnswerJournal } from './answer-journal.ts';
import {
  clockMs,
  CONTEXTS_PER_WORKER,
  LOG_MESSAGE_CHARS,
  POSTED_WORD,
  RUNNING_WORD,
  STARTED_WORD,
  WITHDRAWN_WORD,
  atOrBefore,
  jobAt,
  JOB_FIELDS,
  type AnswerMessage,
  type AnswerText,
  type JobMessage,
  type WorkerHostRequest,
  type WorkerJob,
  type WorkerSetup,
} from './worker-protocol.ts';

const setup = workerData as WorkerSetup;
const signal = new Int32Array(setup.signal);
const journal = new AnswerJournal(setup.journal);
/** A script that failed to compile (or to run its first time): the message each call of it is answered. */
class LoadFailure {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}
/** The source of a script given with a job that was withdrawn before it ran: compiled when a call first needs it. */
class Uncompiled {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
}
/** A script's context, its load failure, or its source not compiled yet. */
const contexts = new Map<string, Context | LoadFailure | Uncompiled>();
/** The script of `contexts` used last (its last entry): a call of it needs no reordering. */
let newest: string | undefined;
/**
 * import() from a plugin (in its source, an eval or a Function body) is refused with a thrown string. Without this
 * callback Node rejects the import with an error of the worker's realm, whose constructor's constructor is the
 * worker's Function, and through it `process`. Node calls the callback only with --experimental-vm-modules (the
 * pool starts its workers with it); a string, a primitive, has no realm to leak.
 */
const refuseImport = (): never => {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a string on purpose: an Error would be of this realm
  throw 'import() is not available to plugins';
};
const callScript = new Script('__gwCall()', { filename: 'plugin-call', importModuleDynamically: refuseImport });
const apiScript = new Script(JS_API_SOURCE, { filename: 'tyk-js-api', importModuleDynamically: refuseImport });
let current: { id: number; deadline: number; logs: number } | undefined;

/** Log lines one call may write; more are dropped (a plugin logging in a loop must not flood the gateway). */
const LOGS_PER_CALL = 100;
let seq = 0;

function host(op: unknown, arg: unknown): string | undefined {
  if (!current || typeof op !== 'string' || typeof arg !== 'string') return undefined;
  if (op === 'log' || op === 'rawlog') {
    // Cut here, before the copy to the gateway thread: a log line of any length would stall it (and fill the log).
    const line = arg.length > LOG_MESSAGE_CHARS ? `${arg.slice(0, LOG_MESSAGE_CHARS)}…` : arg;
    if (++current.logs <= LOGS_PER_CALL) parentPort!.postMessage({ id: current.id, type: 'host', seq: ++seq, op, arg: line } satisfies WorkerHostRequest);
    return undefined;
  }
  if (arg.length > setup.maxMessageChars) return undefined;
  const ask: WorkerHostRequest = { id: current.id, type: 'host', seq: ++seq, op: op as HostOp, arg };
  parentPort!.postMessage(ask);
  for (;;) {
    const left = current.deadline - Date.now();
    if (left <= 0) return undefined;
    if (Atomics.load(signal, 0) !== seq) Atomics.wait(signal, 0, Atomics.load(signal, 0), left);
    let reply = receiveMessageOnPort(setup.replies);
    while (reply && (reply.message as { seq: number }).seq !== seq) reply = receiveMessageOnPort(setup.replies);
    if (reply) {
      const value = (reply.message as { value: unknown }).value;
      return typeof value === 'string' ? value : undefined;
    }
  }
}

/** The job's context, its load failure, or undefined when the pool did not send a source this worker lacks. */
function contextFor(job: WorkerJob): Context | LoadFailure | undefined {
  const known = contexts.get(job.script);
  if (known && !(known instanceof Uncompiled) && job.source === undefined) {
    // Most recently used last, as the pool counts (already so when it is the script of the call before).
    if (job.script !== newest) remember(job.script, known);
    return known;
  }
  contexts.delete(job.script);
  const source = job.source ?? (known instanceof Uncompiled ? known.source : undefined);
  if (source === undefined) return undefined;
  let entry: Context | LoadFailure;
  try {
    // The context's own global object, no sandbox of this worker's realm behind it: globalThis.constructor is the
    // context's Object, and its constructor the context's Function, which reaches no `process` (a sandbox object
    // would lend its prototype's `constructor`, this worker's Object). Without a sandbox, globals are also read
    // without the interceptors node:vm puts in front of one (about 1.5 µs less per call).
    entry = createContext(vmConstants.DONT_CONTEXTIFY, {
      microtaskMode: 'afterEvaluate',
      codeGeneration: { strings: true, wasm: false },
      importModuleDynamically: refuseImport,
    });
    (entry as { __gwHost?: unknown }).__gwHost = host;
    apiScript.runInContext(entry);
    new Script(source, { filename: job.script, importModuleDynamically: refuseImport }).runInContext(entry);
  } catch (error) {
    const message = dataProperty(error, 'message');
    entry = new LoadFailure(typeof message === 'string' ? message : 'the plugin failed to load');
  }
  remember(job.script, entry);
  return entry;
}

/** Keeps a script's entry as the most recently used; past CONTEXTS_PER_WORKER, the least recently used is dropped. */
function remember(script: string, entry: Context | LoadFailure | Uncompiled): void {
  contexts.delete(script);
  contexts.set(script, entry);
  newest = script;
  if (contexts.size > CONTEXTS_PER_WORKER) contexts.delete(contexts.keys().next().value!);
}

// On the gateway thread's core, a worker woken for a batch would preempt the gateway thread at once (Linux's wake-up
// preemption): the batch is then the one call handed, and every call pays two context switches. Under SCHED_BATCH it
// runs once the gateway thread blocks (every request of the turn handed) or has used its slice: batches stay large.
// chrt (util-linux) sets it for this thread only; without it (not Linux, no chrt) the worker keeps the default policy.
if (setup.batchScheduling) {
  try {
    const thread = readlinkSync('/proc/thread-self').split('/').at(-1)!;
    execFileSync('chrt', ['--batch', '--pid', '0', thread], { stdio: 'ignore', timeout: 2000 });
  } catch {
    // The default policy: batches as the scheduler makes them.
  }
}

// The worker waits for jobs on a shared word rather than in its event loop (a futex wake instead of an event loop
// turn and a message event per batch); Worker.terminate interrupts the wait as it does a running call.
let posted = 0;
for (;;) {
  Atomics.wait(signal, POSTED_WORD, posted);
  posted = Atomics.load(signal, POSTED_WORD);
  // Every message posted meanwhile (one per turn of the gateway's event loop) runs as one batch, answered in one post.
  let jobs: JobMessage = [];
  for (let message = receiveMessageOnPort(setup.jobs); message; message = receiveMessageOnPort(setup.jobs)) {
    jobs = jobs.length === 0 ? (message.message as JobMessage) : jobs.concat(message.message as JobMessage);
  }
  if (jobs.length > 0) runBatch(jobs);
}

function runBatch(jobs: JobMessage): void {
  let answers: AnswerMessage = [];
  for (let index = 0; index < jobs.length; index += JOB_FIELDS) {
    const job = jobAt(jobs, index);
    current = { id: job.id, deadline: Date.now() + setup.timeoutMs, logs: 0 };
    Atomics.store(signal, STARTED_WORD, clockMs());
    Atomics.store(signal, RUNNING_WORD, job.id);
    // Taken back by the pool while a call before it ran too long (read after RUNNING_WORD is set: worker-protocol.ts).
    const withdrawn = Atomics.load(signal, WITHDRAWN_WORD);
    if (withdrawn !== 0 && !atOrBefore(job.id, withdrawn)) Atomics.compareExchange(signal, WITHDRAWN_WORD, withdrawn, 0);
    const answer = atOrBefore(job.id, withdrawn) ? withdraw(job) : runJob(job);
    Atomics.store(signal, RUNNING_WORD, 0);
    current = undefined;
    answers.push(job.id, answer);
    // Every answer is posted or in the journal.
    if (!journal.add(job.id, answer)) {
      parentPort!.postMessage(answers);
      answers = [];
      journal.clear();
    }
  }
  if (answers.length > 0) parentPort!.postMessage(answers);
  journal.clear();
}

/** Skips a job the pool took back; its script's source, when it came with it, is kept as the pool counts it held. */
function withdraw(job: WorkerJob): AnswerText {
  const known = contexts.get(job.script);
  if (job.source !== undefined) remember(job.script, new Uncompiled(job.source));
  else if (known) remember(job.script, known);
  return 'W';
}

/** Runs a job: its answer's text (worker-protocol.ts AnswerText), __gwCall's own when it answered a value or an error. */
function runJob(job: WorkerJob): AnswerText {
  try {
    const context = contextFor(job);
    if (!context) return 'Ethe plugin worker lost the script';
    if (context instanceof LoadFailure) return `E${context.message}`;
    context.__gwArgs = job.args;
    const value: unknown = callScript.runInContext(context);
    if (typeof value !== 'string' || value === 'U') return 'U';
    // Bounded before the copy to the gateway thread, which parses it while every API waits.
    if (value.length > setup.maxMessageChars + 1) return `Ethe plugin's answer is longer than ${setup.maxMessageChars} characters`;
    // 'R' + the value, or 'E' + a message: already an answer's text.
    return value.startsWith('R') || value.startsWith('E') ? value : `E${value.slice(1)}`;
  } catch (error) {
    // A timeout, a syntax error, a throw from the script's first run: read through data descriptors only, so no
    // getter (or proxy trap) of a plugin's object ever runs outside the time limit.
    const message = dataProperty(error, 'message');
    const timedOut = dataProperty(error, 'code') === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    return `${timedOut ? 'T' : 'E'}${typeof message === 'string' ? message : 'the plugin failed'}`;
  }
}

function dataProperty(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null || types.isProxy(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, name);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}
