// A change feed of management objects, served as a long poll (docs/architecture.md §4 "Drift"): a version counter that
// every committed management write bumps, and waiters that are answered as soon as the version passes what they
// have seen. The gateway (/gw/changes) and the dashboard (/api/changes) serve it; the operator watches it to
// repair a hand edit within seconds instead of waiting for its periodic scan.
//
//   GET <path>?since=N[&epoch=E][&timeout=S]   200 {version, epoch}
//     answers at once when version > N or when E is not this process's epoch (a restart, another replica: the
//     counter started again, so the caller must look); otherwise when the version changes, or after S seconds
//     (default 30, at most 60) with the unchanged version. since: a non-negative integer; epoch: the value a
//     previous answer carried; a bad value is 400 naming the parameter.
//   At most `maxWaiters` requests wait at once (default 64); one more is 503 (the caller falls back to its scan).
//
// The counter lives in the process: it says "something changed here", never what; a caller re-reads what it
// cares about. It must never hold a waiter past its timeout or after its connection closed, nor a server that is
// shutting down: close() answers every waiter at once (the unchanged version; the caller polls again and finds the
// service gone), and every poll after it, so a watcher's long poll never holds a draining server for its grace
// period (the gateway waited its full 10 s on every SIGTERM while the operator watched it).
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { ChangeCursor } from '../domain/change-cursor.ts';
import { HttpError } from './errors.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether an answered request committed a write under one of `prefixes` (matched route pattern, not raw URL). */
export function isCommittedWrite(method: string, routePath: string | undefined, status: number, prefixes: readonly string[]): boolean {
  if (READS.has(method) || status >= 300 || routePath === undefined) return false;
  return prefixes.some((prefix) => routePath === prefix || routePath.startsWith(`${prefix}/`));
}

export interface ChangeFeedOptions {
  /** Long polls waiting at once. Default 64. */
  maxWaiters?: number;
  /** Longest wait a caller may ask for, in seconds. Default 60. */
  maxTimeoutSeconds?: number;
  /** Wait when the caller names none, in seconds. Default 30. */
  defaultTimeoutSeconds?: number;
  /** Called when a poll is refused because maxWaiters are waiting (the service logs it). Default none. */
  onTooManyWaiters?: () => void;
  /** The feed's epoch when several threads serve one feed (the gateway's workers). Default a fresh UUID. */
  epoch?: string;
}

export interface ChangeQuery {
  since: number;
  epoch: string | undefined;
  timeoutMs: number;
}

export class ChangeFeed {
  readonly epoch: string;
  /** Each waiter's finish(): answers it with the current cursor. */
  readonly #waiters = new Set<() => void>();
  readonly #maxWaiters: number;
  readonly #maxTimeoutSeconds: number;
  readonly #defaultTimeoutSeconds: number;
  readonly #onTooManyWaiters: (() => void) | undefined;
  #version = 0;
  #closed = false;

  constructor(options: ChangeFeedOptions = {}) {
    this.#maxWaiters = options.maxWaiters ?? 64;
    this.#maxTimeoutSeconds = options.maxTimeoutSeconds ?? 60;
    this.#defaultTimeoutSeconds = options.defaultTimeoutSeconds ?? 30;
    this.#onTooManyWaiters = options.onTooManyWaiters;
    this.epoch = options.epoch ?? randomUUID();
  }

  get cursor(): ChangeCursor {
    return { version: this.#version, epoch: this.epoch };
  }

  get waiting(): number {
    return this.#waiters.size;
  }

  /** Records a committed write and answers every waiter. */
  bump(): void {
    this.advanceTo(this.#version + 1);
  }

  /** The version another thread of the same feed reached (never backwards); answers every waiter. */
  advanceTo(version: number): void {
    if (version <= this.#version) return;
    this.#version = version;
    for (const finish of [...this.#waiters]) finish();
  }

  /** The service is shutting down: answers every waiter now, and every later poll at once. */
  close(): void {
    this.#closed = true;
    for (const finish of [...this.#waiters]) finish();
  }

  /** The query string of a long poll, validated; throws ChangeFeedError (400) naming the bad parameter. */
  parse(query: Record<string, unknown>): ChangeQuery {
    const since = integerParameter(query.since, 'since', 0, Number.MAX_SAFE_INTEGER, 0);
    const timeoutSeconds = integerParameter(query.timeout, 'timeout', 0, this.#maxTimeoutSeconds, this.#defaultTimeoutSeconds);
    const epoch = query.epoch;
    if (epoch !== undefined && (typeof epoch !== 'string' || epoch.length > 64))
      throw new HttpError('invalid', 'epoch: expected the epoch string of a previous answer');
    return { since, epoch, timeoutMs: timeoutSeconds * 1000 };
  }

  /** One long poll: validates the query, waits, and stops waiting when `response` closes (the caller left). */
  async poll(query: Record<string, unknown>, response: EventEmitter): Promise<ChangeCursor> {
    const parsed = this.parse(query);
    const closed = new AbortController();
    const onClose = (): void => closed.abort();
    response.once('close', onClose);
    try {
      return await this.wait(parsed, closed.signal);
    } finally {
      response.off('close', onClose);
    }
  }

  /**
   * Answers once the version is past `since` (at once if it already is, or if `epoch` is not ours, or after close()),
   * or after the timeout, or when `closed` aborts (the caller went away: the answer is then ignored), or at close().
   */
  wait(query: ChangeQuery, closed: AbortSignal): Promise<ChangeCursor> {
    const answerNow = this.#closed || this.#version > query.since || (query.epoch !== undefined && query.epoch !== this.epoch) || query.timeoutMs === 0;
    if (answerNow) return Promise.resolve(this.cursor);
    if (this.#waiters.size >= this.#maxWaiters) {
      this.#onTooManyWaiters?.();
      return Promise.reject(new HttpError('unavailable', `too many change watchers waiting (at most ${this.#maxWaiters}); poll again later`));
    }
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        closed.removeEventListener('abort', finish);
        this.#waiters.delete(finish);
        resolve(this.cursor);
      };
      const timer = setTimeout(finish, query.timeoutMs);
      closed.addEventListener('abort', finish, { once: true });
      this.#waiters.add(finish);
    });
  }
}

function integerParameter(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const text = typeof value === 'string' ? value : '';
  if (!/^\d{1,16}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new HttpError('invalid', `${name}: expected an integer from ${min} to ${max}`);
  }
  return Number(text);
}
