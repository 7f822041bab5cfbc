// The bounded wait of a broker output's publishes (PUBLISH_TIMEOUT_MS), for a connector whose publishes settle on
// their own (a Redis XADD settles with its reply, redis-streams.ts): each batch written is watched from the moment
// it is sent, and a publish still unsettled when its batch's deadline passes is rejected with a timeout. One timer
// for the whole output, re-armed for the oldest batch still waiting, instead of a timer, a race and two promises per
// batch: a connection answers in the order it was written to, so the oldest batches settle first and are dropped
// from the front when the next batch is sent (the list holds about the batches in flight).
import type { Settleable } from './broker.ts';

interface Watched<T> {
  readonly items: T[];
  readonly deadline: number;
}

export class PublishDeadline<T extends Settleable> {
  readonly #ms: number;
  readonly #what: string;
  #batches: Watched<T>[] = [];
  #timer: NodeJS.Timeout | undefined;

  /** `what` names the wait in the timeout's message ("redis XADD timed out after 5000 ms"). */
  constructor(ms: number, what: string) {
    this.#ms = ms;
    this.#what = what;
  }

  /** Starts the wait of a batch just sent. */
  watch(items: T[]): void {
    this.#dropSettled();
    this.#batches.push({ items, deadline: performance.now() + this.#ms });
    this.#timer ??= this.#arm(this.#ms);
  }

  /** Stops the timer (the output is closing: its connection settles what is left). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#batches = [];
  }

  /** How many batches are watched (for tests). */
  get watched(): number {
    return this.#batches.length;
  }

  #arm(ms: number): NodeJS.Timeout {
    // Unref'd: an open output's connection keeps the process up, not its deadline.
    return setTimeout(() => this.#expire(), ms).unref();
  }

  #expire(): void {
    this.#timer = undefined;
    const now = performance.now();
    let timedOut: Error | undefined;
    while (this.#batches.length > 0 && this.#batches[0]!.deadline <= now) {
      for (const item of this.#batches.shift()!.items) {
        if (item.isSettled) continue;
        timedOut ??= new Error(`${this.#what} timed out after ${this.#ms} ms`);
        item.reject(timedOut);
      }
    }
    this.#dropSettled();
    if (this.#batches.length > 0) this.#timer = this.#arm(this.#batches[0]!.deadline - now);
  }

  #dropSettled(): void {
    while (this.#batches.length > 0 && this.#batches[0]!.items.every((item) => item.isSettled)) this.#batches.shift();
  }
}
