// A bounded failed-attempt limiter (sign-in throttling): counts failures per key (a client address, an account)
// within a window; a key reaching its failure limit is locked out, each further lock-out of the same key twice as
// long as the last (up to a cap), until it stays quiet for a whole cap. Memory is bounded: at most `maxEntries`
// keys are tracked in an lru-cache, the least recently touched one evicted first. No lru-cache TTL: an entry's
// windows and lock-outs expire by its own times on the injected clock (#entryOf), and a quiet key merely ages out.
// It only counts: it never looks at credentials, and it answers the same for a key it has never seen and for one
// whose account does not exist, so callers can not learn which accounts exist from it.
import { LRUCache } from 'lru-cache';

export interface AttemptLimiterOptions {
  /** Failures within `windowMs` that lock the key out. */
  maxFailures: number;
  /** The failure-counting window, and the first lock-out's length. */
  windowMs: number;
  /** The longest lock-out (lock-outs double up to it). */
  maxLockoutMs: number;
  /** Most keys tracked at once (least recently used evicted). */
  maxEntries: number;
  /** The clock (tests); Date.now by default. */
  now?: () => number;
}

interface Entry {
  failures: number;
  /** Attempts admitted and not yet settled: they count against the limit, so a burst can not outrun it. */
  inFlight: number;
  windowStart: number;
  lockedUntil: number;
  /** Lock-outs so far: the next one lasts windowMs * 2^lockouts (capped). */
  lockouts: number;
}

/** How long an attempt waits when the key's remaining attempts are all in flight (their outcome decides). */
const IN_FLIGHT_WAIT_MS = 1000;

export class AttemptLimiter {
  readonly #options: AttemptLimiterOptions;
  readonly #now: () => number;
  readonly #entries: LRUCache<string, Entry>;

  constructor(options: AttemptLimiterOptions) {
    this.#options = options;
    this.#entries = new LRUCache({ max: options.maxEntries });
    this.#now = options.now ?? Date.now;
  }

  /**
   * Admits one attempt of the key (0: go ahead, settle() it afterwards) or answers how many milliseconds it must
   * wait: the lock-out's remainder, or a second while attempts in flight already use up what is left of the limit.
   */
  admit(key: string): number {
    const now = this.#now();
    const entry = this.#entryOf(key, now);
    if (entry.lockedUntil > now) return this.#keep(key, entry, entry.lockedUntil - now);
    if (entry.failures + entry.inFlight >= this.#options.maxFailures) return this.#keep(key, entry, IN_FLIGHT_WAIT_MS);
    entry.inFlight += 1;
    return this.#keep(key, entry, 0);
  }

  /**
   * Milliseconds the key is still locked out (0: not locked), without counting an attempt: for callers that let
   * some requests through without a check worth counting (a credential verified moments ago) but never while locked.
   */
  lockedFor(key: string): number {
    const lockedUntil = this.#entries.peek(key)?.lockedUntil ?? 0; // a look, not a touch: recency unchanged
    return Math.max(0, lockedUntil - this.#now());
  }

  /** Ends an admitted attempt: a failure counts (the limit reached locks the key out), a success counts nothing. */
  settle(key: string, failed: boolean): void {
    const now = this.#now();
    const entry = this.#entryOf(key, now);
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (failed) {
      entry.failures += 1;
      if (entry.failures >= this.#options.maxFailures) {
        const { windowMs, maxLockoutMs } = this.#options;
        entry.lockedUntil = now + Math.min(windowMs * 2 ** entry.lockouts, maxLockoutMs);
        entry.lockouts += 1;
        entry.failures = 0;
        entry.windowStart = entry.lockedUntil;
      }
    }
    this.#keep(key, entry, 0);
  }

  /** Forgets the key's failures and lock-outs (a successful sign-in); attempts still in flight keep counting. */
  reset(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    if (entry.inFlight === 0) this.#entries.delete(key);
    else Object.assign(entry, { failures: 0, lockedUntil: 0, lockouts: 0, windowStart: this.#now() });
  }

  /** Keys tracked now (never more than maxEntries). */
  get size(): number {
    return this.#entries.size;
  }

  /** The key's entry (a new one is tracked once #keep stores it), its expired window restarted. */
  #entryOf(key: string, now: number): Entry {
    const entry = this.#entries.get(key) ?? { failures: 0, inFlight: 0, windowStart: now, lockedUntil: 0, lockouts: 0 };
    const { windowMs, maxLockoutMs } = this.#options;
    if (entry.lockouts > 0 && entry.lockedUntil <= now - maxLockoutMs) entry.lockouts = 0;
    if (now - entry.windowStart >= windowMs && entry.lockedUntil <= now) {
      entry.failures = 0;
      entry.windowStart = now;
    }
    return entry;
  }

  #keep<T>(key: string, entry: Entry, result: T): T {
    this.#entries.set(key, entry); // the most recently used; beyond maxEntries the least recently used goes
    return result;
  }
}
