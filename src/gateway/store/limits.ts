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

/**
 * A log of accepted-request times kept as a ring: entry i (oldest first, i < size) is
 * `times[base + (head + i) % capacity]`. RateWindow keeps one in its own array; shared-counters.ts keeps one per
 * slot in a SharedArrayBuffer that worker threads decide on together. Both run the one algorithm below.
 */
export interface RingLog {
  times: Float64Array;
  base: number;
  capacity: number;
  head: number;
  size: number;
  /** The window of the last check (ringIdle needs it). */
  perMs: number;
}

/** Moves the log into `capacity` entries (oldest first, head 0); false when no room could be had. */
export type RingGrow = (ring: RingLog, capacity: number) => boolean;

/** The first capacity of a new log: a key allowed a billion requests starts as small as one allowed sixteen. */
export function initialRingCapacity(rate: number): number {
  return Math.max(1, Math.min(rate, INITIAL_CAPACITY));
}

/**
 * Decides one request at `now` on the log; logs it when accepted (and not a dry run). Undefined only when the log
 * had to grow and `grow` found no room (the shared arena is full): nothing was changed but stale entries dropped.
 */
export function checkRing(
  ring: RingLog,
  rate: number,
  perMs: number,
  now: number,
  dryRun: boolean,
  grow: RingGrow,
): (RateState & { allowed: boolean }) | undefined {
  if (ring.size > rate) {
    // The rate went down below what the log holds: keep only the newest `rate` entries.
    ring.head = (ring.head + ring.size - rate) % ring.capacity;
    ring.size = rate;
  }
  ring.perMs = perMs;
  const horizon = now - perMs;
  while (ring.size > 0 && ring.times[ring.base + ring.head]! <= horizon) {
    ring.head = (ring.head + 1) % ring.capacity;
    ring.size--;
  }
  if (ring.size >= rate) {
    return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, ring.times[ring.base + ring.head]! + perMs - now) };
  }
  if (!dryRun) {
    if (ring.size === ring.capacity && !grow(ring, Math.min(rate, ring.capacity * 2))) return undefined;
    ring.times[ring.base + ((ring.head + ring.size) % ring.capacity)] = now;
    ring.size++;
  }
  const used = ring.size + (dryRun ? 1 : 0);
  return { allowed: true, remaining: Math.max(0, rate - used), retryAfterMs: 0 };
}

/** True when nothing in the log is younger than the last window checked: the log can be dropped. */
export function ringIdle(ring: RingLog, now: number): boolean {
  if (ring.size === 0) return true;
  const newest = ring.times[ring.base + ((ring.head + ring.size - 1) % ring.capacity)]!;
  return newest <= now - ring.perMs;
}

/** Copies the log's entries, oldest first, into `target` from `offset`. */
export function copyRing(ring: RingLog, target: Float64Array, offset: number): void {
  for (let i = 0; i < ring.size; i++) target[offset + i] = ring.times[ring.base + ((ring.head + i) % ring.capacity)]!;
}

/** A log in memory of its own: grows by doubling up to the rate, never fails to. */
export class RateWindow {
  readonly ring: RingLog;

  constructor(rate: number) {
    const capacity = initialRingCapacity(rate);
    this.ring = { times: new Float64Array(capacity), base: 0, capacity, head: 0, size: 0, perMs: 0 };
  }

  /** Entries the log can hold before it grows (tests watch memory through it). */
  get capacity(): number {
    return this.ring.capacity;
  }

  /** Decides one request at `now`; logs it when accepted (and not a dry run). */
  check(rate: number, perMs: number, now: number, dryRun = false): RateState & { allowed: boolean } {
    return checkRing(this.ring, rate, perMs, now, dryRun, growInMemory)!;
  }

  /** True when nothing in the log is younger than the last window checked: the entry can be dropped. */
  idle(now: number): boolean {
    return ringIdle(this.ring, now);
  }

  /** A window over a log copied out of shared memory (oldest first, in an array of its own). */
  static holding(ring: RingLog): RateWindow {
    const window = new RateWindow(1);
    Object.assign(window.ring, ring);
    return window;
  }

  /** Moves a log held in its own array into a new one of `capacity` entries. */
  static grow(ring: RingLog, capacity: number): boolean {
    const next = new Float64Array(Math.max(1, capacity));
    copyRing(ring, next, 0);
    ring.times = next;
    ring.base = 0;
    ring.capacity = next.length;
    ring.head = 0;
    return true;
  }
}

const growInMemory: RingGrow = (ring, capacity) => RateWindow.grow(ring, capacity);

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
