// The basic-auth lock-out's counters (basic-passwords.ts): failed password checks per user and per client address
// (two AttemptLimiters). One gateway thread keeps them itself (LocalLockouts); on several worker threads the primary
// keeps the one set and workers ask it (workers/worker-link.ts), so a lock-out after N failures takes N failures
// whichever workers the guesses reach. Every method may answer in place or later.
import { AttemptLimiter } from '../../http/attempt-limiter.ts';

/** Who is trying: the user (org id + username, the key's name) and the client's address. */
export interface PasswordAttempt {
  user: string;
  client: string;
}

/** How an admitted attempt ended: a right password, a wrong one, or no verdict (the check could not run). */
export type AttemptOutcome = 'ok' | 'failed' | 'none';

export interface Lockouts {
  /** Milliseconds the user or the client is still locked out (0: neither), counting no attempt. */
  lockedFor(who: PasswordAttempt): number | Promise<number>;
  /** Admits one attempt (0: go ahead, settle it afterwards) or the milliseconds to wait instead. */
  admit(who: PasswordAttempt): number | Promise<number>;
  /** Ends an admitted attempt: a failure counts for both, a success forgets the user's failures. */
  settle(who: PasswordAttempt, outcome: AttemptOutcome): void;
}

export interface LockoutLimits {
  maxFailuresPerUser: number;
  maxFailuresPerClient: number;
  /** The failure-counting window, and the first lock-out's length. */
  windowMs: number;
  maxLockoutMs: number;
  /** Users and clients tracked (each). */
  maxEntries: number;
}

export class LocalLockouts implements Lockouts {
  readonly #users: AttemptLimiter;
  readonly #clients: AttemptLimiter;

  constructor(limits: LockoutLimits, now: () => number) {
    const common = { windowMs: limits.windowMs, maxLockoutMs: Math.max(limits.maxLockoutMs, limits.windowMs), maxEntries: limits.maxEntries, now };
    this.#users = new AttemptLimiter({ ...common, maxFailures: limits.maxFailuresPerUser });
    this.#clients = new AttemptLimiter({ ...common, maxFailures: limits.maxFailuresPerClient });
  }

  lockedFor(who: PasswordAttempt): number {
    return Math.max(this.#users.lockedFor(who.user), this.#clients.lockedFor(who.client));
  }

  admit(who: PasswordAttempt): number {
    const clientWait = this.#clients.admit(who.client);
    if (clientWait > 0) return clientWait;
    const userWait = this.#users.admit(who.user);
    if (userWait > 0) this.#clients.settle(who.client, false);
    return userWait;
  }

  settle(who: PasswordAttempt, outcome: AttemptOutcome): void {
    this.#clients.settle(who.client, outcome === 'failed');
    this.#users.settle(who.user, outcome === 'failed');
    if (outcome === 'ok') this.#users.reset(who.user);
  }
}
