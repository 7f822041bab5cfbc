// JavaScript plugins off the event loop and out of the gateway's heap: a fixed pool of worker threads
// (plugin-worker.ts), each running plugins in node:vm contexts under a time limit per call and a heap limit per
// worker (resourceLimits). Calls are pipelined and batched: up to PIPELINE_DEPTH calls are handed to a worker ahead of
// the one it runs, the calls handed to a worker in one turn of the event loop go in one message (posted when the turn
// ends), and a worker answers the calls of a message in one message, so under load the two threads wake each other
// once per batch instead of once per call (a call handed off and answered one at a time costs about 16 µs of CPU in
// the hand-offs; batched, a few). A worker runs its calls in the order it was given them, and says which one it runs,
// and since when, in shared words: the time limit is the running call's own. A call still running at its limit has
// its worker ended (Worker.terminate interrupts the JavaScript wherever it is: a loop, a microtask chain) and is
// answered as timed out; the calls of the same worker that ran before it are answered as they answered (their answers
// not yet posted are read from the worker's journal, answer-journal.ts), the calls queued behind it, never started,
// go to a fresh worker. With more than one core, calls spread over idle workers; with one, they go to the busiest
// worker free to take them (not waiting on a host operation), which goes from batch to batch without sleeping (and
// runs under SCHED_BATCH, so that waking it does not preempt the gateway thread: plugin-worker.ts). At most `workers`
// calls run at once, at most `queue` more wait (in the pool or handed ahead to a worker), at most a share of them
// (apiQueueShare) of one API; beyond, a call fails at once. Fair between APIs: a worker whose call runs past stuckMs
// is held (nothing more goes to it) and the calls handed behind that call are taken back (the worker skips them,
// WITHDRAWN_WORD) for other workers; while every worker is held, the calls of APIs holding none get extra workers (one
// per held worker, at most extraWorkers), ended once idle and no longer needed. So one API's plugin looping until
// the time limit delays no other API's calls by more than stuckMs. A worker that dies (out of memory) is replaced, failing only the call it
// was running. Scripts are sent to a worker once and compiled there once (the pool and the worker drop the same least
// recently used script, as they see the same calls in the same order). The host operations plugins ask for (HTTP,
// batch, keys, logs) are answered here by the caller's handler; the worker waits for them synchronously
// (plugin-worker.ts).
import { availableParallelism } from 'node:os';
import { readJournal } from './answer-journal.ts';
import {
  clockMs,
  CONTEXTS_PER_WORKER,
  nextJobId,
  POSTED_WORD,
  pushJob,
  readAnswer,
  RUNNING_WORD,
  STARTED_WORD,
  WITHDRAWN_WORD,
  type WorkerAnswer,
  type WorkerMessage,
} from './worker-protocol.ts';
import { DEFAULT_MAX_MESSAGE_CHARS, DEFAULT_STUCK_MS, PIPELINE_DEPTH, type PluginPoolOptions } from './pool-options.ts';
import { startSlot, type HostHandler, type Pending, type PluginOutcome, type PluginScript, type Slot } from './worker-slot.ts';

export type { HostHandler, PluginOutcome, PluginScript } from './worker-slot.ts';
export { DEFAULT_MAX_MESSAGE_CHARS, DEFAULT_STUCK_MS, PIPELINE_DEPTH, type PluginPoolOptions } from './pool-options.ts';

const QUEUE_FULL = 'too many plugin calls waiting (jsvm_queue)';

export class PluginPool {
  readonly #options: PluginPoolOptions;
  readonly #spread: boolean;
  readonly #slots: Slot[] = [];
  readonly #waiting: Pending[] = [];
  /** Slots with jobs in their outbox. */
  readonly #unposted = new Set<Slot>();
  /** Calls not answered yet per API (running or waiting). */
  readonly #held = new Map<string, number>();
  readonly #apiQueue: number;
  readonly #stuckMs: number;
  readonly #extraWorkers: number;
  /** Slots whose running call is past stuckMs. */
  #stuckSlots = 0;
  /** Looks for calls past stuckMs while calls wait. */
  #watch: NodeJS.Timeout | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: PluginPoolOptions) {
    this.#options = options;
    this.#spread = options.spread ?? availableParallelism() > 1;
    this.#apiQueue = Math.max(1, Math.floor(options.queue * (options.apiQueueShare ?? 0.5)));
    this.#stuckMs = options.stuckMs ?? DEFAULT_STUCK_MS;
    this.#extraWorkers = options.extraWorkers ?? options.workers;
  }

  get timeoutMs(): number {
    return this.#options.timeoutMs;
  }

  /** Runs one call (args: the JSON js-api.ts __gwCall reads) of API `owner`. Never rejects. */
  call(script: PluginScript, args: string, host: HostHandler, owner: string = script.id): Promise<PluginOutcome> {
    return new Promise((resolve) => {
      const held = this.#held.get(owner) ?? 0;
      if (held >= this.#apiQueue && held - this.#runningOf(owner) >= this.#apiQueue) {
        const full = this.#queued() >= this.#options.queue;
        resolve({ ok: false, message: full ? QUEUE_FULL : 'too many plugin calls of this API waiting (its share of jsvm_queue)', timedOut: false });
        return;
      }
      // Its id is given each time it is handed (#hand).
      const pending: Pending = { job: { id: 0, script: script.id, args }, script, owner, host, resolve };
      const slot = this.#waiting.length === 0 || this.#stuckSlots > 0 ? this.#slotFor(pending) : undefined;
      if (slot) this.#hand(slot, pending);
      else if (this.#queued() < this.#options.queue) {
        this.#waiting.push(pending);
        this.#armWatch();
      } else return resolve({ ok: false, message: QUEUE_FULL, timedOut: false });
      this.#held.set(owner, held + 1);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const stopping: PluginOutcome = { ok: false, message: 'the gateway is stopping', timedOut: false };
    clearTimeout(this.#watch);
    for (const pending of this.#waiting.splice(0)) this.#settle(pending, stopping);
    const slots = this.#slots.splice(0);
    for (const slot of slots) {
      slot.ending = true;
      clearTimeout(slot.guard);
      for (const pending of slot.jobs.splice(0)) this.#settle(pending, stopping);
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Calls waiting: in the pool, and handed to a worker behind the one it runs. */
  #queued(): number {
    let queued = this.#waiting.length;
    for (const slot of this.#slots) queued += Math.max(0, slot.jobs.length - 1);
    return queued;
  }

  #settle(pending: Pending, outcome: PluginOutcome): void {
    const held = this.#held.get(pending.owner)! - 1;
    if (held === 0) this.#held.delete(pending.owner);
    else this.#held.set(pending.owner, held);
    pending.resolve(outcome);
  }

  /** Calls of `owner` a worker runs (or is about to: the first it was handed). */
  #runningOf(owner: string): number {
    let running = 0;
    for (const slot of this.#slots) if (slot.jobs[0]?.owner === owner) running += 1;
    return running;
  }

  /**
   * Unless calls spread, the busiest worker with room in its pipeline and not waiting on a host operation: under load
   * it goes from batch to batch without sleeping, where another would have to be woken. Else (or when there is
   * none) an idle worker (started if the pool has room), else the least busy one with room in its pipeline. Never a
   * worker held by a long call; an extra worker only for an API none of whose calls holds one.
   */
  #slotFor(pending: Pending): Slot | undefined {
    if (this.#closed) return undefined;
    const ownerStuck = this.#stuckSlots > 0 && this.#slots.some((slot) => slot.stuck !== undefined && slot.jobs[0]?.owner === pending.owner);
    if (!this.#spread) {
      let busiest: Slot | undefined;
      for (const slot of this.#slots) {
        if (slot.stuck !== undefined || (ownerStuck && slot.extra)) continue;
        if (slot.hostWaits === 0 && slot.jobs.length < PIPELINE_DEPTH && (!busiest || slot.jobs.length > busiest.jobs.length)) busiest = slot;
      }
      if (busiest && (busiest.jobs.length === 0 || this.#queued() < this.#options.queue)) return busiest;
    }
    let best: Slot | undefined;
    let regular = 0;
    let extras = 0;
    for (const slot of this.#slots) {
      if (slot.extra) extras += 1;
      else regular += 1;
      if (slot.stuck !== undefined || (ownerStuck && slot.extra)) continue;
      if (!best || slot.jobs.length < best.jobs.length) best = slot;
    }
    if (best?.jobs.length === 0) return best;
    if (regular < this.#options.workers) return this.#startWorker(false);
    if (!ownerStuck && extras < Math.min(this.#extraWorkers, this.#stuckSlots)) return this.#startWorker(true);
    // Handing a call ahead still respects jsvm_queue: it waits, in the worker's port instead of the pool.
    if (best && best.jobs.length < PIPELINE_DEPTH && this.#queued() < this.#options.queue) return best;
    return undefined;
  }

  #startWorker(extra: boolean): Slot {
    const options = this.#options;
    const settings = {
      ...options,
      maxMessageChars: options.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS,
      batchScheduling: options.batchScheduling ?? !this.#spread,
    };
    const slot = startSlot(settings, extra, {
      message: (message) => this.#message(slot, message),
      exited: (message) => this.#exited(slot, message),
    });
    this.#slots.push(slot);
    return slot;
  }

  #hand(slot: Slot, pending: Pending): void {
    // A fresh id on every hand: a worker's jobs come in increasing ids, so WITHDRAWN_WORD skips exactly the jobs handed
    // up to it, and a call taken back and handed again (to the same worker too) is not skipped as its first hand was.
    pending.job.id = this.#nextId;
    this.#nextId = nextJobId(this.#nextId);
    slot.jobs.push(pending);
    // The source goes with the first call of a script on this worker; both sides then keep it as most recently used.
    const known = slot.known.delete(pending.script.id);
    slot.known.add(pending.script.id);
    if (slot.known.size > CONTEXTS_PER_WORKER) slot.known.delete(slot.known.values().next().value!);
    pushJob(slot.outbox, pending.job, known ? undefined : pending.script.source);
    if (this.#unposted.size === 0) setImmediate(this.#post);
    this.#unposted.add(slot);
    if (!slot.guard) this.#arm(slot, this.#options.timeoutMs);
    if (slot.jobs.length > 1) this.#armWatch();
  }

  /** Posts each worker the jobs handed to it in this turn of the event loop, as one message. */
  readonly #post = (): void => {
    for (const slot of this.#unposted) {
      if (!slot.ending) {
        slot.jobPort.postMessage(slot.outbox);
        Atomics.add(slot.signal, POSTED_WORD, 1);
        Atomics.notify(slot.signal, POSTED_WORD);
      }
      slot.outbox = [];
    }
    this.#unposted.clear();
  };

  #arm(slot: Slot, ms: number): void {
    slot.guard = setTimeout(() => this.#overrun(slot), ms);
    slot.guard.unref();
  }

  /** The guard: ends the worker if the call it runs has had its time, else looks again when that call's time is up. */
  #overrun(slot: Slot): void {
    slot.guard = undefined;
    if (slot.ending || slot.jobs.length === 0) return;
    const running = Atomics.load(slot.signal, RUNNING_WORD);
    const started = Atomics.load(slot.signal, STARTED_WORD);
    // Between two calls (or a call ending as it is read): the next one's time starts at the earliest now.
    if (running === 0 || Atomics.load(slot.signal, RUNNING_WORD) !== running) return this.#arm(slot, this.#options.timeoutMs);
    const elapsed = (clockMs() - started) | 0;
    if (elapsed < this.#options.timeoutMs) return this.#arm(slot, this.#options.timeoutMs - elapsed);
    slot.overran = running;
    this.#end(slot);
    void slot.worker.terminate();
  }

  #message(slot: Slot, message: WorkerMessage): void {
    if (Array.isArray(message)) {
      const withdrawn: Pending[] = [];
      for (let i = 0; i + 1 < message.length; i += 2) this.#answer(slot, readAnswer(message[i] as number, message[i + 1] as string), withdrawn);
      this.#waiting.unshift(...withdrawn);
      this.#dispatch();
      return;
    }
    const pending = slot.jobs.find((entry) => entry.job.id === message.id);
    if (!pending) return;
    if (message.op !== 'log' && message.op !== 'rawlog') slot.hostWaits += 1;
    const answer = pending.host(message.op, message.arg);
    if (answer === undefined) {
      if (message.op !== 'log' && message.op !== 'rawlog') this.#reply(slot, message.seq, undefined);
      return;
    }
    answer.then(
      (value) => this.#reply(slot, message.seq, value),
      () => this.#reply(slot, message.seq, undefined),
    );
  }

  /**
   * Settles the call answered (a worker answers its calls in the order given: normally the first); a call the worker
   * skipped as withdrawn (and the pool had not taken back yet) goes to `withdrawn`, to wait for another worker.
   */
  #answer(slot: Slot, answer: WorkerAnswer, withdrawn: Pending[]): void {
    if (answer.id === slot.stuck) this.#unstick(slot);
    const index = slot.jobs.findIndex((entry) => entry.job.id === answer.id);
    if (index === -1) return;
    const [pending] = slot.jobs.splice(index, 1);
    if (answer.type === 'withdrawn') withdrawn.push(pending!);
    else
      this.#settle(pending!, answer.type === 'result' ? { ok: true, value: answer.value } : { ok: false, message: answer.message, timedOut: answer.timedOut });
  }

  #reply(slot: Slot, seq: number, value: string | undefined): void {
    slot.hostWaits -= 1;
    if (slot.ending) return;
    slot.replies.postMessage({ seq, value });
    Atomics.store(slot.signal, 0, seq);
    Atomics.notify(slot.signal, 0);
  }

  /** Takes a worker out of the pool: nothing more is handed to it. */
  #end(slot: Slot): void {
    this.#unstick(slot);
    slot.ending = true;
    clearTimeout(slot.guard);
    slot.replies.close();
    slot.jobPort.close();
    const index = this.#slots.indexOf(slot);
    if (index !== -1) this.#slots.splice(index, 1);
  }

  /**
   * The worker is gone (its posted answers already delivered): the answers it had not posted are read from its
   * journal, the call it was running fails (the first one left when it ran none), and the calls behind, never
   * started, wait for another worker.
   */
  #exited(slot: Slot, message: string): void {
    if (slot.jobs.length === 0 && slot.ending) return;
    this.#end(slot);
    const withdrawn: Pending[] = [];
    for (const answer of readJournal(slot.journal)) this.#answer(slot, answer, withdrawn);
    const running = slot.overran ?? Atomics.load(slot.signal, RUNNING_WORD);
    const index = Math.max(
      0,
      slot.jobs.findIndex((entry) => entry.job.id === running),
    );
    const [failed] = slot.jobs.splice(index, 1);
    this.#waiting.unshift(...withdrawn, ...slot.jobs.splice(0));
    if (failed && slot.overran !== undefined)
      this.#settle(failed, { ok: false, message: `JS middleware timed out after ${this.#options.timeoutMs}ms`, timedOut: true });
    else if (failed) this.#settle(failed, { ok: false, message, timedOut: false });
    this.#dispatch();
  }

  /** Hands waiting calls to workers, in order; while workers are held by long calls, other APIs' calls go past. */
  #dispatch(): void {
    for (let i = 0; i < this.#waiting.length;) {
      const slot = this.#slotFor(this.#waiting[i]!);
      if (slot) this.#hand(slot, this.#waiting.splice(i, 1)[0]!);
      else if (this.#stuckSlots === 0) break;
      else i += 1;
    }
    this.#retireIdleExtras();
  }

  #armWatch(): void {
    if (this.#watch || this.#stuckMs <= 0 || this.#closed) return;
    this.#watch = setTimeout(this.#checkStuck, this.#stuckMs);
    this.#watch.unref();
  }

  /**
   * While calls wait: a worker whose running call is past stuckMs is held (nothing more goes to it), and the calls
   * handed behind that call are taken back to go to other workers (an extra one for other APIs when none is free).
   */
  readonly #checkStuck = (): void => {
    this.#watch = undefined;
    for (const slot of this.#slots) {
      if (slot.ending || slot.jobs.length === 0) continue;
      if (slot.stuck === undefined) {
        const running = Atomics.load(slot.signal, RUNNING_WORD);
        const started = Atomics.load(slot.signal, STARTED_WORD);
        if (running === 0 || Atomics.load(slot.signal, RUNNING_WORD) !== running || ((clockMs() - started) | 0) < this.#stuckMs) continue;
        if (!slot.jobs.some((entry) => entry.job.id === running)) continue;
        slot.stuck = running;
        this.#stuckSlots += 1;
      }
      this.#withdraw(slot);
    }
    this.#dispatch();
    if (this.#waiting.length > 0 || this.#slots.some((slot) => slot.jobs.length > 1)) this.#armWatch();
  };

  /**
   * Settles the calls a held worker ran before its running call (their answers wait in its journal until its batch
   * ends), and takes back the calls handed behind it: the worker skips them (WITHDRAWN_WORD). When it has moved on
   * meanwhile, they stay: it answers each, run or skipped (`withdrawn`, then handed again).
   */
  #withdraw(slot: Slot): void {
    // The journal is read while the held call runs, before and after: the worker writes it only between calls.
    const answers = Atomics.load(slot.signal, RUNNING_WORD) === slot.stuck ? readJournal(slot.journal) : [];
    if (answers.length > 0 && Atomics.load(slot.signal, RUNNING_WORD) === slot.stuck) {
      const withdrawn: Pending[] = [];
      for (const answer of answers) this.#answer(slot, answer, withdrawn);
      this.#waiting.unshift(...withdrawn);
    }
    const index = slot.jobs.findIndex((entry) => entry.job.id === slot.stuck);
    if (index === -1 || index === slot.jobs.length - 1) return;
    Atomics.store(slot.signal, WITHDRAWN_WORD, slot.jobs.at(-1)!.job.id);
    if (Atomics.load(slot.signal, RUNNING_WORD) !== slot.stuck) return;
    this.#waiting.unshift(...slot.jobs.splice(index + 1));
  }

  #unstick(slot: Slot): void {
    if (slot.stuck === undefined) return;
    slot.stuck = undefined;
    this.#stuckSlots -= 1;
  }

  /** Extra workers beyond one per held worker, once they have nothing to run, are ended. */
  #retireIdleExtras(): void {
    let extras = 0;
    for (const slot of this.#slots) if (slot.extra) extras += 1;
    const allowed = Math.min(this.#extraWorkers, this.#stuckSlots);
    for (const slot of [...this.#slots]) {
      if (extras <= allowed) return;
      if (!slot.extra || slot.jobs.length > 0 || slot.hostWaits > 0) continue;
      this.#end(slot);
      void slot.worker.terminate();
      extras -= 1;
    }
  }
}
