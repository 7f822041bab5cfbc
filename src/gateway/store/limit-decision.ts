// One limit check's decision, wherever its counters live: the embedded store's own maps (embedded.ts) or a slot of
// the counters worker threads share (shared-counters.ts). The order is the contract's (store.ts): the rate is only
// peeked until the quota has room too, so a request rejected by either consumes neither; a dry run consumes nothing.
import { checkRing, consumeQuota, quotaState, type QuotaCounter, type RingGrow, type RingLog } from './limits.ts';
import type { LimitCheck, LimitResult } from './store.ts';

/** Where one check's counters are read and written. */
export interface LimitCounters {
  /** The rate log, or undefined when the key has none yet. */
  ring(): RingLog | undefined;
  /** A new, empty log for `rate` (the first accepted request); undefined when no room could be had. */
  newRing(rate: number): RingLog | undefined;
  readonly grow: RingGrow;
  quota(): QuotaCounter | undefined;
  setQuota(counter: QuotaCounter): void;
}

/** Decides `check` on `counters`; undefined when a rate log needed room it could not have (nothing consumed). */
export function decideLimits(check: LimitCheck, now: number, counters: LimitCounters): LimitResult | undefined {
  const { rate, quota, dryRun = false } = check;
  let rateState;
  let ring: RingLog | undefined;
  if (rate) {
    ring = counters.ring();
    const peek = checkRing(ring ?? emptyRing(), rate.rate, rate.perMs, now, true, counters.grow)!;
    rateState = { remaining: peek.remaining, retryAfterMs: peek.retryAfterMs };
    if (!peek.allowed) {
      return { outcome: 'rate_limited', rate: rateState, ...(quota ? { quota: quotaState(counters.quota(), quota.max, quota.renewalMs, now) } : {}) };
    }
  }
  let quotaResult;
  if (quota) {
    quotaResult = consumeQuota(counters.quota(), quota.max, quota.renewalMs, now, dryRun);
    if (!quotaResult.allowed) return { outcome: 'quota_exceeded', quota: quotaResult.state, ...(rateState ? { rate: rateState } : {}) };
  }
  if (!dryRun) {
    if (rate) {
      ring ??= counters.newRing(rate.rate);
      if (!ring || !checkRing(ring, rate.rate, rate.perMs, now, false, counters.grow)) return undefined;
    }
    if (quota && quotaResult) counters.setQuota(quotaResult.counter);
  }
  return { outcome: 'allowed', ...(rateState ? { rate: rateState } : {}), ...(quotaResult ? { quota: quotaResult.state } : {}) };
}

function emptyRing(): RingLog {
  return { times: EMPTY, base: 0, capacity: 1, head: 0, size: 0, perMs: 0 };
}

const EMPTY = new Float64Array(1);
