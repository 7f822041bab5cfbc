// The two counting algorithms behind rate limits and quotas, as pure in-memory structures. The embedded store
// uses them directly; redis.ts runs the same algorithms in a Lua script (and its tests hold both to the same cases).
//
// Rate limit: an exact rolling window. A log of the times of ACCEPTED requests (a ring buffer that grows with the
// requests actually in the window, never past `rate`: a key allowed a billion requests per minute costs memory
// for the requests it makes, not for the billion): a request is accepted when fewer than `rate` accepted requests
// lie in (now - per, now]. A rejected
// request is not logged, so a client over its rate gets through again as soon as the oldest accepted request
// leaves the window (Tyk logs rejected requests too and keeps a hammering client blocked: docs/architecture.md §3).
//
// Quota: a counter per period. The period starts at the first request after the previous one ended (event-driven
// renewal, never a timer), `quota_max` requests pass, the rest are rejected without being counted.
import type { QuotaState, RateState } from './store.ts';

const INITIAL_CAPACITY = 16;

export class RateWindow {
  #times: Float64Array;
  #head = 0;
  #size = 0;
  #perMs = 0;

  constructor(rate: number) {
    this.#times = new Float64Array(Math.max(1, Math.min(rate, INITIAL_CAPACITY)));
  }

  /** Entries the log can hold before it grows (tests watch memory through it). */
  get capacity(): number {
    return this.#times.length;
  }

  /** Decides one request at `now`; logs it when accepted (and not a dry run). */
  check(rate: number, perMs: number, now: number, dryRun = false): RateState & { allowed: boolean } {
    if (this.#size > rate) this.#keepNewest(rate);
    this.#perMs = perMs;
    const horizon = now - perMs;
    while (this.#size > 0 && this.#times[this.#head]! <= horizon) {
      this.#head = (this.#head + 1) % this.#times.length;
      this.#size--;
    }
    if (this.#size >= rate) {
      return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, this.#times[this.#head]! + perMs - now) };
    }
    if (!dryRun) {
      if (this.#size === this.#times.length) this.#reallocate(Math.min(rate, this.#times.length * 2));
      this.#times[(this.#head + this.#size) % this.#times.length] = now;
      this.#size++;
    }
    const used = this.#size + (dryRun ? 1 : 0);
    return { allowed: true, remaining: Math.max(0, rate - used), retryAfterMs: 0 };
  }

  /** True when nothing in the log is younger than the last window checked: the entry can be dropped. */
  idle(now: number): boolean {
    if (this.#size === 0) return true;
    const newest = this.#times[(this.#head + this.#size - 1) % this.#times.length]!;
    return newest <= now - this.#perMs;
  }

  /** The rate went down below what the log holds: keep only the newest `rate` entries. */
  #keepNewest(rate: number): void {
    const drop = this.#size - rate;
    this.#head = (this.#head + drop) % this.#times.length;
    this.#size = rate;
  }

  #reallocate(capacity: number): void {
    const next = new Float64Array(Math.max(1, capacity));
    for (let i = 0; i < this.#size; i++) next[i] = this.#times[(this.#head + i) % this.#times.length]!;
    this.#times = next;
    this.#head = 0;
  }
}

export interface QuotaCounter {
  used: number;
  /** Unix ms the period ends; 0 when it never ends. */
  renewsAt: number;
}

/** The counter as it stands at `now`: a fresh period when the last one has ended (or none started). */
export function currentPeriod(counter: QuotaCounter | undefined, renewalMs: number, now: number): QuotaCounter {
  if (counter === undefined || (counter.renewsAt !== 0 && now >= counter.renewsAt)) {
    return { used: 0, renewsAt: renewalMs > 0 ? now + renewalMs : 0 };
  }
  return counter;
}

/** Decides one request against a quota; returns the counter to store (unchanged when rejected or a dry run). */
export function consumeQuota(
  counter: QuotaCounter | undefined,
  max: number,
  renewalMs: number,
  now: number,
  dryRun = false,
): { allowed: boolean; counter: QuotaCounter; state: QuotaState } {
  const period = currentPeriod(counter, renewalMs, now);
  if (period.used + 1 > max) {
    return { allowed: false, counter: period, state: { used: period.used, remaining: 0, renewsAt: period.renewsAt } };
  }
  const next = dryRun ? period : { used: period.used + 1, renewsAt: period.renewsAt };
  const used = period.used + 1;
  return { allowed: true, counter: next, state: { used, remaining: Math.max(0, max - used), renewsAt: period.renewsAt } };
}

/** The quota seen from outside (GET /gw/keys): what is left now, without counting a request. */
export function quotaState(counter: QuotaCounter | undefined, max: number, renewalMs: number, now: number): QuotaState {
  const period = currentPeriod(counter, renewalMs, now);
  return { used: period.used, remaining: Math.max(0, max - period.used), renewsAt: period.renewsAt };
}
