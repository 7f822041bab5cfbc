// A work queue with client-go's semantics (util/workqueue): fair, stingy, and never concurrent per item.
//   queue       the order items are handed out in (FIFO)
//   dirty       items that need processing; adding an item already dirty does nothing, so many events for one
//               key collapse into one reconcile
//   processing  items handed out and not yet done; an item added while processing is only marked dirty and is
//               queued again when done(): one key is never reconciled twice at once
// Delayed adds (addAfter, addRateLimited) wait in a min-heap by ready time, one entry per item keeping the
// earliest time, behind one timer. shutDownWithDrain() refuses new work and resolves once in-flight items are done.
// Metrics hooks follow client-go's queue metrics (what controller-runtime exports as workqueue_*): an add of an item
// not already dirty, every delayed add (a retry), the wait before a worker took an item, and the work on it; depth and
// the work in flight are read when scraped (depth, unfinishedWork()).
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.ts';

/** Metrics hooks; each is optional. Times in milliseconds. */
export interface QueueHooks {
  /** An item became dirty (workqueue_adds_total). */
  added?: () => void;
  /** A delayed add: addAfter or addRateLimited (workqueue_retries_total, as client-go counts it). */
  retried?: () => void;
  /** How long an item waited between being queued and a worker taking it (workqueue_queue_duration_seconds). */
  waited?: (ms: number) => void;
  /** How long a worker held an item, from get() to done() (workqueue_work_duration_seconds). */
  worked?: (ms: number) => void;
}

interface Delayed<K> {
  item: K;
  readyAt: number;
}

export class WorkQueue<K = string> {
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #waiters: ((item: K | undefined) => void)[] = [];
  readonly #heap: Delayed<K>[] = [];
  readonly #delayed = new Map<K, Delayed<K>>();
  readonly #limiter: RateLimiter<K>;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #shuttingDown = false;
  #handOffScheduled = false;
  #drained: (() => void) | undefined;
  readonly #queuedAt = new Map<K, number>();
  readonly #startedAt = new Map<K, number>();
  readonly #hooks: QueueHooks;

  constructor(limiter: RateLimiter<K> = defaultControllerRateLimiter<K>(), now: () => number = Date.now, hooks: QueueHooks = {}) {
    this.#limiter = limiter;
    this.#now = now;
    this.#hooks = hooks;
  }

  add(item: K): void {
    if (this.#shuttingDown || this.#dirty.has(item)) return;
    this.#hooks.added?.();
    this.#dirty.add(item);
    if (this.#processing.has(item)) return;
    this.#push(item);
  }

  /** Adds the item after `ms`; an item already waiting keeps the earlier of the two times. */
  addAfter(item: K, ms: number): void {
    if (this.#shuttingDown) return;
    this.#hooks.retried?.();
    if (ms <= 0) {
      this.add(item);
      return;
    }
    const readyAt = this.#now() + ms;
    const waiting = this.#delayed.get(item);
    if (waiting) {
      if (waiting.readyAt <= readyAt) return;
      waiting.readyAt = readyAt;
      this.#heapify();
    } else {
      const entry = { item, readyAt };
      this.#delayed.set(item, entry);
      this.#heapPush(entry);
    }
    this.#schedule();
  }

  addRateLimited(item: K): void {
    this.addAfter(item, this.#limiter.when(item));
  }

  forget(item: K): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: K): number {
    return this.#limiter.numRequeues(item);
  }

  /** The next item to process, or undefined once the queue is shut down. */
  get(): Promise<K | undefined> {
    const item = this.#queue.shift();
    if (item !== undefined) {
      this.#take(item);
      return Promise.resolve(item);
    }
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  done(item: K): void {
    const startedAt = this.#startedAt.get(item);
    if (startedAt !== undefined) {
      this.#startedAt.delete(item);
      this.#hooks.worked?.(this.#now() - startedAt);
    }
    this.#processing.delete(item);
    if (this.#dirty.has(item) && !this.#shuttingDown) this.#push(item);
    if (this.#drained && this.#processing.size === 0) this.#drained();
  }

  /** Items waiting to be handed out (not the delayed ones). */
  get length(): number {
    return this.#queue.length;
  }

  /** Items waiting for their delay. */
  get delayedLength(): number {
    return this.#delayed.size;
  }

  get processingCount(): number {
    return this.#processing.size;
  }

  /** Items that need processing (client-go's depth: queued, or added again while a worker holds them). */
  get depth(): number {
    return this.#dirty.size;
  }

  /** Work in flight: the seconds all held items have been held in total, and the longest (client-go's). */
  unfinishedWork(): { totalSeconds: number; longestSeconds: number } {
    const now = this.#now();
    let totalSeconds = 0;
    let longestSeconds = 0;
    for (const startedAt of this.#startedAt.values()) {
      const seconds = (now - startedAt) / 1000;
      totalSeconds += seconds;
      longestSeconds = Math.max(longestSeconds, seconds);
    }
    return { totalSeconds, longestSeconds };
  }

  shutDown(): void {
    this.#shuttingDown = true;
    if (this.#timer) clearTimeout(this.#timer);
    for (const waiter of this.#waiters.splice(0)) waiter(undefined);
  }

  /** Shuts down, then resolves once every item handed out is done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#drained = resolve));
  }

  #push(item: K): void {
    if (this.#hooks.waited) this.#queuedAt.set(item, this.#now());
    this.#queue.push(item);
    if (this.#waiters.length > 0 && !this.#handOffScheduled) {
      this.#handOffScheduled = true;
      queueMicrotask(() => this.#handOff());
    }
  }

  /**
   * Waiting workers get queued items after the code that added them has run to its end (as client-go's workers
   * wake after Add returns), so an event handler that adds one key twice makes one reconcile, not two.
   */
  #handOff(): void {
    this.#handOffScheduled = false;
    while (this.#waiters.length > 0 && this.#queue.length > 0) {
      const item = this.#queue.shift()!;
      this.#take(item);
      this.#waiters.shift()!(item);
    }
  }

  #take(item: K): void {
    const queuedAt = this.#queuedAt.get(item);
    if (queuedAt !== undefined) {
      this.#queuedAt.delete(item);
      this.#hooks.waited?.(this.#now() - queuedAt);
    }
    this.#startedAt.set(item, this.#now());
    this.#dirty.delete(item);
    this.#processing.add(item);
  }

  #schedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    const next = this.#heap[0];
    if (!next) return;
    this.#timer = setTimeout(() => this.#release(), Math.max(0, next.readyAt - this.#now()));
    this.#timer.unref();
  }

  #release(): void {
    this.#timer = undefined;
    const now = this.#now();
    while (this.#heap[0] && this.#heap[0].readyAt <= now) {
      const entry = this.#heapPop()!;
      this.#delayed.delete(entry.item);
      this.add(entry.item);
    }
    this.#schedule();
  }

  #heapPush(entry: Delayed<K>): void {
    this.#heap.push(entry);
    let i = this.#heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#heap[parent]!.readyAt <= this.#heap[i]!.readyAt) break;
      [this.#heap[parent], this.#heap[i]] = [this.#heap[i]!, this.#heap[parent]!];
      i = parent;
    }
  }

  #heapPop(): Delayed<K> | undefined {
    const top = this.#heap[0];
    const last = this.#heap.pop();
    if (this.#heap.length > 0 && last) {
      this.#heap[0] = last;
      this.#sinkFrom(0);
    }
    return top;
  }

  #sinkFrom(start: number): void {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.#heap.length && this.#heap[left]!.readyAt < this.#heap[smallest]!.readyAt) smallest = left;
      if (right < this.#heap.length && this.#heap[right]!.readyAt < this.#heap[smallest]!.readyAt) smallest = right;
      if (smallest === i) return;
      [this.#heap[smallest], this.#heap[i]] = [this.#heap[i]!, this.#heap[smallest]!];
      i = smallest;
    }
  }

  #heapify(): void {
    for (let i = (this.#heap.length >> 1) - 1; i >= 0; i--) this.#sinkFrom(i);
  }
}
