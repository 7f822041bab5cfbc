// The dashboard's one sign-in throttle, shared by every credential check a client can repeat: the web UI's
// POST /session (access key) and POST /session/admin (admin secret), the developer portal's sign-in form and
// POST /api/portal/developers/verify_credentials. Failures are counted per client (request.ip: the connection's
// address, or X-Forwarded-For's when the connection comes from one of trusted_proxies) and per account (the admin
// account; a developer's e-mail in an organisation, shared by the portal form and verify_credentials); either one
// reaching its limit locks the sign-in out (429 with Retry-After) without checking the credential at all, for a
// right one too, until the lock-out ends. A success resets the account's counter (never the client's: one valid
// account must not buy unlimited guesses at others). Password checks (scrypt) also pass a concurrency gate: a
// burst waits, then gets 503. All of it lives in this process's memory (bounded: sign_in_tracked_entries keys per
// limiter, least recently used evicted); several dashboard processes each keep their own. Attempts still in flight
// count against the limits, so a parallel burst can not outrun them. Never logs or stores a credential: accounts
// are keyed by e-mail or a fixed name. The developer portal's sign-up form is throttled the same way per client:
// every sign-up that gets as far as hashing its password counts (an account created, or an e-mail found taken:
// that answer tells whether an e-mail is registered, so it must not be repeatable either), and a client reaching
// sign_up_max_per_client within sign_in_window_seconds gets 429 with Retry-After until its lock-out ends.
import type { FastifyReply } from 'fastify';
import { AttemptLimiter } from '../../http/attempt-limiter.ts';
import { ConcurrencyGate } from '../../http/concurrency-gate.ts';
import type { DashboardConfig } from '../config.ts';
import { sendError } from '../http.ts';

/** Who is trying: the client (address, or an API caller's identity) and, when known, the account. */
export interface SignInAttempt {
  client: string;
  account?: string;
}

/** A sign-in's outcome: the verified value; a refusal (401); or a lock-out (429 after retryAfterSeconds). */
export type SignInOutcome<T> = { kind: 'signed-in'; value: T } | { kind: 'refused' } | { kind: 'locked-out'; retryAfterSeconds: number };

/** A sign-up's outcome: what it returned, or a lock-out (429 after retryAfterSeconds). */
export type SignUpOutcome<T> = { kind: 'ran'; value: T } | { kind: 'locked-out'; retryAfterSeconds: number };

export const LOCKED_OUT_MESSAGE = 'Too many failed sign-in attempts: try again later';

export class SignInThrottle {
  readonly #clients: AttemptLimiter;
  readonly #accounts: AttemptLimiter;
  readonly #signUps: AttemptLimiter;
  /** Bounds concurrent password hashing (scrypt), for sign-ins and sign-ups alike. */
  readonly passwordChecks: ConcurrencyGate;

  constructor(
    config: Pick<
      DashboardConfig,
      | 'sign_in_max_failures_per_client'
      | 'sign_in_max_failures_per_account'
      | 'sign_in_window_seconds'
      | 'sign_in_max_lockout_seconds'
      | 'sign_in_tracked_entries'
      | 'password_check_concurrency'
      | 'password_check_queue'
      | 'sign_up_max_per_client'
    >,
    now?: () => number,
  ) {
    const common = {
      windowMs: config.sign_in_window_seconds * 1000,
      maxLockoutMs: Math.max(config.sign_in_max_lockout_seconds, config.sign_in_window_seconds) * 1000,
      maxEntries: config.sign_in_tracked_entries,
      ...(now ? { now } : {}),
    };
    this.#clients = new AttemptLimiter({ ...common, maxFailures: config.sign_in_max_failures_per_client });
    this.#accounts = new AttemptLimiter({ ...common, maxFailures: config.sign_in_max_failures_per_account });
    this.#signUps = new AttemptLimiter({ ...common, maxFailures: config.sign_up_max_per_client });
    this.passwordChecks = new ConcurrencyGate({
      limit: config.password_check_concurrency,
      queue: config.password_check_queue,
      busyMessage: 'Too many password checks at once: try again shortly (password_check_concurrency, password_check_queue)',
    });
  }

  /** Runs `verify` (undefined: wrong credentials) unless the client or the account is locked out, and counts the result. */
  async attempt<T>(who: SignInAttempt, verify: () => Promise<T | undefined>): Promise<SignInOutcome<T>> {
    const clientWait = this.#clients.admit(who.client);
    if (clientWait > 0) return lockedOut(clientWait);
    const accountWait = who.account === undefined ? 0 : this.#accounts.admit(who.account);
    if (accountWait > 0) {
      this.#clients.settle(who.client, false);
      return lockedOut(accountWait);
    }
    const settle = (failed: boolean): void => {
      this.#clients.settle(who.client, failed);
      if (who.account !== undefined) this.#accounts.settle(who.account, failed);
    };
    let value: T | undefined;
    try {
      value = await verify();
    } catch (error) {
      settle(false); // a check that threw (a busy gate, a database error) proved nothing: no failure
      throw error;
    }
    settle(value === undefined);
    if (value === undefined) return { kind: 'refused' };
    if (who.account !== undefined) this.#accounts.reset(who.account);
    return { kind: 'signed-in', value };
  }

  /** Runs a sign-up unless the client has used up its sign-ups; each one run counts, whatever its outcome. */
  async signUp<T>(client: string, run: () => Promise<T>): Promise<SignUpOutcome<T>> {
    const wait = this.#signUps.admit(client);
    if (wait > 0) return lockedOut(wait);
    try {
      return { kind: 'ran', value: await run() };
    } finally {
      this.#signUps.settle(client, true);
    }
  }
}

const lockedOut = (waitMs: number): { kind: 'locked-out'; retryAfterSeconds: number } => ({
  kind: 'locked-out',
  retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
});

/** The account key of a portal developer (the portal form and verify_credentials share it). */
export function developerAccount(orgId: string, email: string): string {
  return `developer ${orgId} ${email.trim().toLowerCase()}`;
}

/** A JSON API's lock-out answer: 429, Retry-After, {"Status":"Error","Message":...}. */
export function sendLockedOut(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return sendError(reply.header('retry-after', String(retryAfterSeconds)).header('cache-control', 'no-store'), 429, LOCKED_OUT_MESSAGE);
}
