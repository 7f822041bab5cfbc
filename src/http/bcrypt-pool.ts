// bcrypt off the event loop: a small fixed pool of worker threads (bcrypt-worker.ts, bcryptjs) checks and hashes
// basic-auth passwords (the gateway's checks and key writes, the dashboard's key writes: here, in http, because both
// may import it), so a burst of password checks never delays other requests of the process (bcryptjs on the
// main thread took 0.13-0.35 s per check, interleaved with every other request). At most `size` checks run at
// once, at most `queue` more wait in arrival order, and a check beyond that is refused at once with
// HashingBusyError (the caller answers 503): memory and latency stay bounded whatever the burst. Workers start with
// the first job, never keep the process alive, and a worker that dies fails its job and is replaced.
import { Worker } from 'node:worker_threads';

export type BcryptJob = { id: number; op: 'compare'; plain: string; hash: string } | { id: number; op: 'hash'; plain: string; cost: number };
export type BcryptReply = { id: number; ok: boolean } | { id: number; hash: string } | { id: number; error: string };

/** bcrypt's cost for stored basic-auth passwords (Tyk Gateway: bcrypt.DefaultCost, 10). */
export const BCRYPT_COST = 10;

export class HashingBusyError extends Error {
  constructor() {
    super('Too many password checks at once: try again shortly (basic_auth_checks.hash_workers, basic_auth_checks.hash_queue)');
    this.name = 'HashingBusyError';
  }
}

interface Pending {
  job: BcryptJob;
  resolve: (reply: BcryptReply) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Pending | undefined;
}

export interface BcryptPoolOptions {
  /** Worker threads (checks running at once). */
  size: number;
  /** Checks waiting for a worker; more are refused with HashingBusyError. */
  queue: number;
}

export class BcryptPool {
  readonly #options: BcryptPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #waiting: Pending[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: BcryptPoolOptions) {
    this.#options = options;
  }

  /** Whether `plain` matches the bcrypt `hash`; HashingBusyError when the queue is full. */
  async compare(plain: string, hash: string): Promise<boolean> {
    const reply = await this.#run({ id: this.#nextId++, op: 'compare', plain, hash });
    if ('error' in reply) throw new Error(`bcrypt compare failed: ${reply.error}`);
    return 'ok' in reply && reply.ok;
  }

  /** The bcrypt hash of `plain` at `cost`; HashingBusyError when the queue is full. */
  async hash(plain: string, cost: number): Promise<string> {
    const reply = await this.#run({ id: this.#nextId++, op: 'hash', plain, cost });
    if (!('hash' in reply)) throw new Error(`bcrypt hash failed: ${'error' in reply ? reply.error : 'no hash'}`);
    return reply.hash;
  }

  /** Checks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.#slots.filter((slot) => slot.job).length, waiting: this.#waiting.length };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const slots = this.#slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #run(job: BcryptJob): Promise<BcryptReply> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { job, resolve, reject };
      const slot = this.#idleSlot();
      if (slot) this.#start(slot, pending);
      else if (this.#waiting.length < this.#options.queue) this.#waiting.push(pending);
      else reject(new HashingBusyError());
    });
  }

  #idleSlot(): Slot | undefined {
    const idle = this.#slots.find((slot) => !slot.job);
    if (idle || this.#slots.length >= this.#options.size || this.#closed) return idle;
    const slot: Slot = { worker: new Worker(new URL('./bcrypt-worker.ts', import.meta.url)), job: undefined };
    slot.worker.on('message', (reply: BcryptReply) => this.#answered(slot, reply));
    slot.worker.on('error', (error: Error) => this.#failed(slot, error));
    slot.worker.on('exit', () => this.#failed(slot, new Error('the bcrypt worker exited')));
    slot.worker.unref(); // after the listeners (a 'message' listener refs the worker again)
    this.#slots.push(slot);
    return slot;
  }

  #start(slot: Slot, pending: Pending): void {
    slot.job = pending;
    slot.worker.postMessage(pending.job);
  }

  #answered(slot: Slot, reply: BcryptReply): void {
    const pending = slot.job;
    if (!pending || pending.job.id !== reply.id) return;
    slot.job = undefined;
    pending.resolve(reply);
    this.#dispatch();
  }

  #failed(slot: Slot, error: Error): void {
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    const pending = slot.job;
    slot.job = undefined;
    pending?.reject(error);
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
