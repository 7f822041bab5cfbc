// What the gateway keeps: API definitions, policies, keys (sessions), and the counters behind rate limits and
// quotas. Two implementations: embedded.ts (default: in memory, durable on local disk) and redis.ts (shared by
// several gateways). This file is the contract; it must never grow a method only one backend can honour.
//
// Limits are decided in ONE call per request (`checkLimits`) so that a request rejected by either the rate limit
// or the quota consumes neither: rejected requests are never counted (docs/architecture.md §3: a client over its rate recovers
// as soon as the window has room; exactly quota_max requests pass per period).
import type { Policy } from '../../domain/policy.ts';
import type { Session } from '../../domain/session.ts';

export type ApiFormat = 'classic' | 'oas';

export interface StoredApi {
  id: string;
  format: ApiFormat;
  /** The definition exactly as accepted (Classic JSON, or the whole OAS document). */
  definition: Record<string, unknown>;
}

export interface StoredPolicy extends Policy {
  id: string;
}

/** A certificate (PEM, possibly with its private key) under its id: org id + SHA-256 fingerprint. */
export interface StoredCert {
  id: string;
  pem: string;
}

/** A rolling-window rate limit: at most `rate` accepted requests in any `perMs` window. */
export interface RateLimit {
  key: string;
  rate: number;
  perMs: number;
}

/** A quota: at most `max` requests per period of `renewalMs` (0: the period never ends). */
export interface Quota {
  key: string;
  max: number;
  renewalMs: number;
}

/** A rate limit and a quota of ONE counter key (both name the same key when both are given). */
export interface LimitCheck {
  rate?: RateLimit;
  quota?: Quota;
  /** Decide without consuming anything (throttled retries peek before committing). */
  dryRun?: boolean;
}

export interface RateState {
  /** Accepted requests left in the window after this one. */
  remaining: number;
  /** Milliseconds until the window has room again (0 when it has room now). */
  retryAfterMs: number;
}

export interface QuotaState {
  used: number;
  remaining: number;
  /** Unix milliseconds the period ends at; 0 when it never ends. */
  renewsAt: number;
}

export type LimitResult =
  | { outcome: 'allowed'; rate?: RateState; quota?: QuotaState }
  | { outcome: 'rate_limited'; rate: RateState; quota?: QuotaState }
  | { outcome: 'quota_exceeded'; rate?: RateState; quota: QuotaState };

export interface Store {
  readonly kind: 'embedded' | 'redis';

  listApis(): Promise<StoredApi[]>;
  getApi(id: string): Promise<StoredApi | undefined>;
  putApi(api: StoredApi): Promise<void>;
  /** False when there was no such API. */
  deleteApi(id: string): Promise<boolean>;

  listPolicies(): Promise<StoredPolicy[]>;
  getPolicy(id: string): Promise<StoredPolicy | undefined>;
  putPolicy(policy: StoredPolicy): Promise<void>;
  deletePolicy(id: string): Promise<boolean>;

  listCerts(): Promise<StoredCert[]>;
  getCert(id: string): Promise<StoredCert | undefined>;
  putCert(cert: StoredCert): Promise<void>;
  deleteCert(id: string): Promise<boolean>;

  /** Keys are stored under their storage id (the key itself, or its hash with hash_keys). */
  getKey(storageId: string): Promise<Session | undefined>;
  /**
   * Writes the key; with `resetCounters` its quota counters and rate windows are forgotten in the SAME write (a
   * fresh quota period starts), so a failure leaves neither the key nor the reset behind.
   */
  putKey(storageId: string, session: Session, options?: { resetCounters?: boolean }): Promise<void>;
  deleteKey(storageId: string): Promise<boolean>;
  listKeys(): Promise<string[]>;

  checkLimits(check: LimitCheck, now: number): Promise<LimitResult>;
  /**
   * The same decision without a promise, offered only by a store whose counters are in this process (embedded, or
   * a worker thread's slot of the shared counters): the request path uses it when present and checkLimits when it
   * is absent or answers undefined (this thread cannot decide this key in place yet). Never required.
   */
  readonly checkLimitsSync?: (check: LimitCheck, now: number) => LimitResult | undefined;
  /** The quota period as it stands, without counting a request. */
  peekQuota(quota: Quota, now: number): Promise<QuotaState>;
  /** Forget quota counters (a fresh period starts at the next request) and rate windows with these key prefixes. */
  resetCounters(keyPrefix: string): Promise<void>;

  /**
   * Response cache entries (middleware/caching/response-cache.ts): opaque bytes under an API and a key until `ttlMs` has
   * passed. Not durable (the embedded store keeps them in memory, bounded; Redis expires them itself); `now` is the
   * caller's clock. `deleteCachedResponses` forgets every entry of the API (DELETE /gw/cache/{apiId}).
   */
  getCachedResponse(apiId: string, key: string, now: number): Promise<Buffer | undefined>;
  putCachedResponse(apiId: string, key: string, entry: Buffer, ttlMs: number, now: number): Promise<void>;
  deleteCachedResponses(apiId: string): Promise<void>;

  /** Ask every gateway of the group (this one included) to reload. */
  publishReload(group: string): Promise<void>;
  /**
   * Called when some gateway of the group asked for a reload (missed = false), or with missed = true when such a
   * request may have been lost (the notifications' connection was lost and is back); returns an unsubscribe function.
   */
  onReload(group: string, listener: (missed: boolean) => void): Promise<() => void>;
  /**
   * Called with the storage id of every key another gateway changed (to drop it from local caches), or with
   * undefined when changes may have been missed (the notifications' connection was lost and is back): drop them all.
   */
  onKeyChanged(listener: (storageId: string | undefined) => void): void;

  /** Health of the backend, for /hello and /ready. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
