// Exponential backoff with full jitter, client-go's reflector defaults: 800 ms doubling to 30 s, a random
// factor up to 2x, and a reset once things have gone well for 2 minutes.
import { setTimeout as sleep } from 'node:timers/promises';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** Quiet time after which the next failure starts from initialMs again. */
  resetAfterMs?: number;
}

export class Backoff {
  readonly #initial: number;
  readonly #max: number;
  readonly #resetAfter: number;
  #next: number;
  #lastFailure = 0;

  constructor(options: BackoffOptions = {}) {
    this.#initial = options.initialMs ?? 800;
    this.#max = options.maxMs ?? 30_000;
    this.#resetAfter = options.resetAfterMs ?? 120_000;
    this.#next = this.#initial;
  }

  /** The delay before the next attempt (and grows the one after). */
  delay(now = Date.now()): number {
    if (now - this.#lastFailure > this.#resetAfter) this.#next = this.#initial;
    this.#lastFailure = now;
    const base = this.#next;
    this.#next = Math.min(this.#max, this.#next * 2);
    return Math.round(base * (1 + Math.random()));
  }

  /** Waits the next delay; resolves early (false) when the signal aborts. */
  async wait(signal: AbortSignal): Promise<boolean> {
    try {
      await sleep(this.delay(), undefined, { signal });
      return true;
    } catch {
      return false;
    }
  }
}
