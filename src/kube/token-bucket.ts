// A token bucket: `rate` tokens per second, at most `burst` saved up. Shared by the API client (client-side QPS)
// and the work queue's overall rate limiter.
export class TokenBucket {
  readonly #rate: number;
  readonly #burst: number;
  #tokens: number;
  #last: number;
  readonly #now: () => number;

  constructor(rate: number, burst: number, now: () => number = Date.now) {
    this.#rate = rate;
    this.#burst = burst;
    this.#tokens = burst;
    this.#now = now;
    this.#last = now();
  }

  /** Takes a token (possibly going into debt) and returns how many ms to wait before using it. */
  reserve(): number {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#rate);
    this.#last = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.#rate) * 1000);
  }
}
