// How long a failed work item waits before its next attempt (client-go's default controller rate limiter):
// the larger of a per-item exponential backoff (5 ms x 2^failures, at most 1000 s) and an overall token bucket
// (10 per second, bursts of 100) that keeps a storm of failures from hammering anything.
import { TokenBucket } from './token-bucket.ts';

export interface RateLimiter<K> {
  /** Milliseconds to wait before retrying the item (counts a failure). */
  when(item: K): number;
  /** The item succeeded: forget its failures. */
  forget(item: K): void;
  numRequeues(item: K): number;
}

export class ExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  readonly #failures = new Map<K, number>();
  readonly #baseMs: number;
  readonly #maxMs: number;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  when(item: K): number {
    const failures = this.#failures.get(item) ?? 0;
    this.#failures.set(item, failures + 1);
    return Math.min(this.#maxMs, this.#baseMs * 2 ** failures);
  }

  forget(item: K): void {
    this.#failures.delete(item);
  }

  numRequeues(item: K): number {
    return this.#failures.get(item) ?? 0;
  }
}

export class BucketRateLimiter<K> implements RateLimiter<K> {
  readonly #bucket: TokenBucket;

  constructor(qps = 10, burst = 100, now?: () => number) {
    this.#bucket = new TokenBucket(qps, burst, now);
  }

  when(_item: K): number {
    return this.#bucket.reserve();
  }

  forget(_item: K): void {}

  numRequeues(_item: K): number {
    return 0;
  }
}

export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.#limiters = limiters;
  }

  when(item: K): number {
    return Math.max(...this.#limiters.map((l) => l.when(item)));
  }

  forget(item: K): void {
    for (const limiter of this.#limiters) limiter.forget(item);
  }

  numRequeues(item: K): number {
    return Math.max(...this.#limiters.map((l) => l.numRequeues(item)));
  }
}

export function defaultControllerRateLimiter<K>(): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ExponentialFailureRateLimiter<K>(5, 1_000_000), new BucketRateLimiter<K>(10, 100));
}
