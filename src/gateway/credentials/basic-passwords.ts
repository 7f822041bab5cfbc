// Basic-auth passwords: hashed with bcrypt (cost 10) when a key is written, checked when a request presents one.
// bcrypt runs in a small pool of worker threads (bcrypt-pool.ts), never on the event loop; a full pool queue makes a
// check `busy` (503). Around it:
// - a check that succeeded is remembered for the API's cache_ttl under the SHA-256 of (stored hash, password), so
//   bcrypt runs once per credential and TTL rather than per request; a changed password changes the stored hash and
//   so never hits an old entry. Concurrent checks of the same credential share one bcrypt run.
// - a check that failed is remembered for `failureCacheMs` the same way: repeating a wrong guess costs no bcrypt.
// - an unknown user (no key, or a key without basic_auth_data) is checked against a fixed dummy hash of the same
//   cost, so it takes as long as a wrong password and the answer's timing does not tell which users exist.
// - failed checks are counted per user and per client address (AttemptLimiter, as the dashboard's sign-in): either
//   reaching its limit locks further attempts out (`locked-out`, 429 with Retry-After), a right password too, until
//   the lock-out ends; a success resets the user's count. A credential verified within cache_ttl passes without
//   being counted (it is no guess), but never while its user or client is locked out. The counters are
//   lockouts.ts's: this thread's, or on several worker threads the primary's, asked over the worker link.
// Both remembered verdicts live in lru-caches of at most maxEntries (tracked_entries), least recently used out; each
// entry keeps its own end time on the injected clock (per-API cache_ttl), checked on read, rather than lru-cache's
// TTL, which runs on its own clock. Comparisons of non-bcrypt forms are constant-time. Plain passwords are never kept, logged or returned.
import { createHash, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { HashingBusyError, type BcryptPool } from '../../http/bcrypt-pool.ts';
import { LocalLockouts, type Lockouts, type PasswordAttempt } from './lockouts.ts';

export type { PasswordAttempt } from './lockouts.ts';

export type HashType = '' | 'bcrypt' | 'sha256';

export interface StoredPassword {
  password: string;
  hash_type?: HashType | undefined;
}

/** A bcrypt hash (cost 10) of a random password nobody knows: what an unknown user's password is checked against. */
export const DUMMY_HASH = '$2b$10$UhP4bxEpRlEkWzUpdi8YZOTttio6ckJ3vnUexIV9zUhba9.yDlgIy';

export type PasswordVerdict = { ok: true } | { ok: false; reason: 'wrong' | 'busy' } | { ok: false; reason: 'locked-out'; retryAfterSeconds: number };

export interface PasswordGuardOptions {
  /** How long a failed check is remembered (0: never). */
  failureCacheMs: number;
  maxFailuresPerUser: number;
  maxFailuresPerClient: number;
  /** The failure-counting window, and the first lock-out's length. */
  windowMs: number;
  maxLockoutMs: number;
  /** Users and clients tracked by the lock-out (each), and credentials remembered by each cache. */
  maxEntries: number;
}

export const DEFAULT_GUARD: PasswordGuardOptions = {
  failureCacheMs: 10_000,
  maxFailuresPerUser: 5,
  maxFailuresPerClient: 20,
  windowMs: 300_000,
  maxLockoutMs: 3_600_000,
  maxEntries: 10_000,
};

/** The guard's options from the gateway's basic_auth_checks settings. */
export function passwordGuard(settings: {
  failure_cache_seconds: number;
  max_failures_per_user: number;
  max_failures_per_client: number;
  lockout_window_seconds: number;
  max_lockout_seconds: number;
  tracked_entries: number;
}): PasswordGuardOptions {
  return {
    failureCacheMs: settings.failure_cache_seconds * 1000,
    maxFailuresPerUser: settings.max_failures_per_user,
    maxFailuresPerClient: settings.max_failures_per_client,
    windowMs: settings.lockout_window_seconds * 1000,
    maxLockoutMs: settings.max_lockout_seconds * 1000,
    maxEntries: settings.tracked_entries,
  };
}

const OK: PasswordVerdict = { ok: true };
const WRONG: PasswordVerdict = { ok: false, reason: 'wrong' };
const BUSY: PasswordVerdict = { ok: false, reason: 'busy' };

export class VerifiedPasswords {
  /** Credential id -> the clock time its remembered success ends (lru-cache: at most maxEntries, least recently used out). */
  readonly #verified: LRUCache<string, number>;
  /** The same for remembered failures. */
  readonly #failed: LRUCache<string, number>;
  readonly #inflight = new Map<string, Promise<boolean>>();
  readonly #pool: Pick<BcryptPool, 'compare'>;
  readonly #now: () => number;
  readonly #options: PasswordGuardOptions;
  readonly #lockouts: Lockouts;

  /** `lockouts`: the counters shared by every worker thread (default: this thread's own). */
  constructor(pool: Pick<BcryptPool, 'compare'>, now: () => number, options: PasswordGuardOptions = DEFAULT_GUARD, lockouts?: Lockouts) {
    this.#pool = pool;
    this.#now = now;
    this.#options = options;
    this.#verified = new LRUCache({ max: options.maxEntries });
    this.#failed = new LRUCache({ max: options.maxEntries });
    this.#lockouts = lockouts ?? new LocalLockouts(options, now);
  }

  /**
   * Whether `plain` is the stored password (`stored` undefined: an unknown user, always wrong, as slowly as a wrong
   * password); ttlSeconds 0 never answers from the success cache. Answers in place when it can.
   */
  check(stored: StoredPassword | undefined, plain: string, ttlSeconds: number, who: PasswordAttempt): PasswordVerdict | Promise<PasswordVerdict> {
    const locked = this.#lockouts.lockedFor(who);
    if (typeof locked !== 'number') return locked.then((ms) => this.#unlessLocked(ms, stored, plain, ttlSeconds, who));
    return this.#unlessLocked(locked, stored, plain, ttlSeconds, who);
  }

  #unlessLocked(
    locked: number,
    stored: StoredPassword | undefined,
    plain: string,
    ttlSeconds: number,
    who: PasswordAttempt,
  ): PasswordVerdict | Promise<PasswordVerdict> {
    if (locked > 0) return lockedOut(locked);
    const bcrypt = stored === undefined || stored.hash_type === 'bcrypt';
    const id = sha256(stored ? `${stored.password}\u0000${plain}` : `${DUMMY_HASH}\u0000${who.user}\u0000${plain}`);
    if (bcrypt && ttlSeconds > 0 && (this.#verified.get(id) ?? 0) > this.#now()) return OK;
    // The same credential already being checked: share that check's answer, counted once (a client's parallel
    // requests after its cache entry expired are one attempt, not a burst the lock-out would refuse).
    const joined = this.#inflight.get(id);
    if (joined) return joined.then((ok) => (ok ? OK : WRONG), busyOrRethrow);
    const wait = this.#lockouts.admit(who);
    if (typeof wait !== 'number') return wait.then((ms) => this.#admitted(ms, id, bcrypt, stored, plain, ttlSeconds, who));
    return this.#admitted(wait, id, bcrypt, stored, plain, ttlSeconds, who);
  }

  #admitted(
    wait: number,
    id: string,
    bcrypt: boolean,
    stored: StoredPassword | undefined,
    plain: string,
    ttlSeconds: number,
    who: PasswordAttempt,
  ): PasswordVerdict | Promise<PasswordVerdict> {
    if (wait > 0) return lockedOut(wait);
    // Admitted by the primary while another request began checking the same credential: join that one instead.
    const joined = this.#inflight.get(id);
    if (joined) {
      this.#lockouts.settle(who, 'none');
      return joined.then((ok) => (ok ? OK : WRONG), busyOrRethrow);
    }
    if ((this.#failed.get(id) ?? 0) > this.#now()) return this.#settle(who, false);
    if (!bcrypt) return this.#settle(who, equalDigests(stored!.hash_type === 'sha256' ? stored!.password : sha256(stored!.password), sha256(plain)));
    const pending = this.#pool.compare(plain, stored?.password ?? DUMMY_HASH).then(
      (matched) => {
        this.#inflight.delete(id);
        const ok = matched && stored !== undefined;
        if (ok && ttlSeconds > 0) this.#verified.set(id, this.#now() + ttlSeconds * 1000);
        if (!ok && this.#options.failureCacheMs > 0) this.#failed.set(id, this.#now() + this.#options.failureCacheMs);
        if (ok) this.#failed.delete(id);
        return ok;
      },
      (error: unknown) => {
        this.#inflight.delete(id);
        throw error;
      },
    );
    this.#inflight.set(id, pending);
    return pending.then(
      (ok) => this.#settle(who, ok),
      (error: unknown) => {
        // a check that could not run proved nothing: no failure counted
        this.#lockouts.settle(who, 'none');
        return busyOrRethrow(error);
      },
    );
  }

  #settle(who: PasswordAttempt, ok: boolean): PasswordVerdict {
    this.#lockouts.settle(who, ok ? 'ok' : 'failed');
    return ok ? OK : WRONG;
  }
}

function busyOrRethrow(error: unknown): PasswordVerdict {
  if (error instanceof HashingBusyError) return BUSY;
  throw error;
}

function lockedOut(waitMs: number): PasswordVerdict {
  return { ok: false, reason: 'locked-out', retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function equalDigests(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
