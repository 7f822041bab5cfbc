// The default store: everything in memory, made durable by journal.ts in `storage.path`. APIs, policies, keys
// and certificates are acknowledged only once written and fsynced; quota counters survive a restart and a SIGKILL
// except for the counts of the last few milliseconds (exactly, with storage.sync_counters); rate-limit windows
// live in memory only (they are seconds long). One gateway per store directory: two processes on one directory
// would each overwrite the other, so opening takes the directory's lock (`<dir>/owner.lock`, db/directory-lock.ts)
// and a second process is refused with DirectoryLockedError. Reloads are local (the "group" is this gateway alone).
import { join } from 'node:path';
import type { Session } from '../../domain/session.ts';
import { lockDirectory, type DirectoryLock } from '../../db/directory-lock.ts';
import { Journal, type JournalOptions, type JournalRecord } from './journal.ts';
import { consumeQuota, quotaState, RateWindow, type QuotaCounter } from './limits.ts';
import { MemoryResponseCache } from './memory-response-cache.ts';
import type { LimitCheck, LimitResult, Quota, QuotaState, Store, StoredApi, StoredCert, StoredPolicy } from './store.ts';

type Kind = 'api' | 'policy' | 'cert' | 'key' | 'quota';

export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  readonly #apis = new Map<string, StoredApi>();
  readonly #policies = new Map<string, StoredPolicy>();
  readonly #certs = new Map<string, StoredCert>();
  readonly #keys = new Map<string, Session>();
  readonly #quotas = new Map<string, QuotaCounter>();
  readonly #rates = new Map<string, RateWindow>();
  readonly #reloadListeners = new Set<(missed: boolean) => void>();
  readonly #journal: Journal;
  readonly #responses: MemoryResponseCache;
  #sweeper: NodeJS.Timeout | undefined;
  #lock: DirectoryLock | undefined;

  private constructor(dir: string, options: JournalOptions, cacheMemoryBytes: number) {
    this.#journal = new Journal(dir, () => this.#records(), options);
    this.#responses = new MemoryResponseCache(cacheMemoryBytes);
  }

  /** Opens (creating) the store in `dir` and replays what it holds. */
  static open(dir: string, options: JournalOptions = {}, { cacheMemoryBytes = 64 * 1024 * 1024 }: { cacheMemoryBytes?: number } = {}): EmbeddedStore {
    const lock = lockDirectory(dir, {
      file: join(dir, 'owner.lock'),
      what: 'the gateway store (storage.path)',
      hint: 'another gw gateway? Give each gateway its own storage.path, or share one Redis store',
    });
    const store = new EmbeddedStore(dir, options, cacheMemoryBytes);
    store.#lock = lock; // a failure below exits the process, and a dead owner's lock is stale: nothing to undo
    for (const record of store.#journal.open()) store.#apply(record);
    store.#journal.compact(); // start from a clean snapshot: a torn last line never precedes new records
    store.#sweeper = setInterval(() => store.#sweepIdleWindows(), 60_000);
    store.#sweeper.unref();
    return store;
  }

  async listApis(): Promise<StoredApi[]> {
    return [...this.#apis.values()];
  }

  async getApi(id: string): Promise<StoredApi | undefined> {
    return this.#apis.get(id);
  }

  async putApi(api: StoredApi): Promise<void> {
    await this.#write('api', api.id, api);
  }

  async deleteApi(id: string): Promise<boolean> {
    return await this.#remove('api', this.#apis, id);
  }

  async listPolicies(): Promise<StoredPolicy[]> {
    return [...this.#policies.values()];
  }

  async getPolicy(id: string): Promise<StoredPolicy | undefined> {
    return this.#policies.get(id);
  }

  async putPolicy(policy: StoredPolicy): Promise<void> {
    await this.#write('policy', policy.id, policy);
  }

  async deletePolicy(id: string): Promise<boolean> {
    return this.#remove('policy', this.#policies, id);
  }

  async listCerts(): Promise<StoredCert[]> {
    return [...this.#certs.values()];
  }

  async getCert(id: string): Promise<StoredCert | undefined> {
    return this.#certs.get(id);
  }

  async putCert(cert: StoredCert): Promise<void> {
    await this.#write('cert', cert.id, cert);
  }

  async deleteCert(id: string): Promise<boolean> {
    return this.#remove('cert', this.#certs, id);
  }

  async getKey(storageId: string): Promise<Session | undefined> {
    return this.#keys.get(storageId);
  }

  async putKey(storageId: string, session: Session, options: { resetCounters?: boolean } = {}): Promise<void> {
    const resets = options.resetCounters ? this.#counterResets(storageId) : [];
    await this.#writeAll([{ t: 'key', id: storageId, v: session }, ...resets]);
    if (options.resetCounters) this.#forgetRateWindows(storageId);
  }

  async deleteKey(storageId: string): Promise<boolean> {
    return this.#remove('key', this.#keys, storageId);
  }

  async listKeys(): Promise<string[]> {
    return [...this.#keys.keys()];
  }

  async checkLimits(check: LimitCheck, now: number): Promise<LimitResult> {
    return this.checkLimitsSync(check, now);
  }

  readonly checkLimitsSync = (check: LimitCheck, now: number): LimitResult => {
    const { rate, quota, dryRun = false } = check;
    let window: RateWindow | undefined;
    let rateState;
    if (rate) {
      window = this.#rates.get(rate.key);
      // Peek first: the rate is only consumed once the quota has room too.
      const peek = (window ?? new RateWindow(rate.rate)).check(rate.rate, rate.perMs, now, true);
      rateState = { remaining: peek.remaining, retryAfterMs: peek.retryAfterMs };
      if (!peek.allowed) {
        return { outcome: 'rate_limited', rate: rateState, ...(quota ? { quota: this.#quotaNow(quota, now) } : {}) };
      }
    }
    let quotaResult;
    if (quota) {
      quotaResult = consumeQuota(this.#quotas.get(quota.key), quota.max, quota.renewalMs, now, dryRun);
      if (!quotaResult.allowed) return { outcome: 'quota_exceeded', quota: quotaResult.state, ...(rateState ? { rate: rateState } : {}) };
    }
    if (!dryRun) {
      if (rate) {
        if (!window) this.#rates.set(rate.key, (window = new RateWindow(rate.rate)));
        window.check(rate.rate, rate.perMs, now);
      }
      if (quota && quotaResult) this.#count(quota.key, quotaResult.counter);
    }
    return { outcome: 'allowed', ...(rateState ? { rate: rateState } : {}), ...(quotaResult ? { quota: quotaResult.state } : {}) };
  };

  async peekQuota(quota: Quota, now: number): Promise<QuotaState> {
    return this.#quotaNow(quota, now);
  }

  async resetCounters(owner: string): Promise<void> {
    const resets = this.#counterResets(owner);
    if (resets.length > 0) await this.#writeAll(resets);
    this.#forgetRateWindows(owner);
  }

  /** The records that forget every quota counter of an owner. */
  #counterResets(owner: string): JournalRecord[] {
    return [...this.#quotas.keys()].filter((key) => belongsTo(key, owner)).map((key) => ({ t: 'quota', id: key }));
  }

  #forgetRateWindows(owner: string): void {
    for (const key of [...this.#rates.keys()]) if (belongsTo(key, owner)) this.#rates.delete(key);
  }

  async getCachedResponse(apiId: string, key: string, now: number): Promise<Buffer | undefined> {
    return this.#responses.get(apiId, key, now);
  }

  async putCachedResponse(apiId: string, key: string, entry: Buffer, ttlMs: number, now: number): Promise<void> {
    this.#responses.put(apiId, key, entry, ttlMs, now);
  }

  async deleteCachedResponses(apiId: string): Promise<void> {
    this.#responses.deleteApi(apiId);
  }

  async publishReload(_group: string): Promise<void> {
    for (const listener of this.#reloadListeners) listener(false);
  }

  async onReload(_group: string, listener: (missed: boolean) => void): Promise<() => void> {
    this.#reloadListeners.add(listener);
    return () => this.#reloadListeners.delete(listener);
  }

  onKeyChanged(_listener: (storageId: string | undefined) => void): void {
    // One gateway per embedded store: no other gateway can change a key behind this one's back.
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#journal.close();
    this.#lock?.release();
  }

  #quotaNow(quota: Quota, now: number): QuotaState {
    return quotaState(this.#quotas.get(quota.key), quota.max, quota.renewalMs, now);
  }

  /**
   * A management write (or a counter reset), as one step: the record is serialized, written and fsynced, and only
   * then applied to memory; it is visible when the promise resolves. A value the journal cannot write throws here,
   * a failed write rejects: either way memory is unchanged.
   */
  #write(kind: Kind, id: string, value: unknown): Promise<void> {
    return this.#writeAll([value === undefined ? { t: kind, id } : { t: kind, id, v: value }]);
  }

  /** Several records as one write: all are journaled together and applied together, or none is. */
  #writeAll(records: JournalRecord[]): Promise<void> {
    return this.#journal.appendDurable(records, () => {
      for (const record of records) this.#apply(record);
    });
  }

  /** A counter update on the request path: visible at once, journaled in the next batch. */
  #count(key: string, counter: QuotaCounter): void {
    this.#quotas.set(key, counter);
    this.#journal.append({ t: 'quota', id: key, v: counter });
  }

  async #remove(kind: Kind, map: Map<string, unknown>, id: string): Promise<boolean> {
    if (!map.has(id)) return false;
    await this.#write(kind, id, undefined);
    return true;
  }

  #apply(record: JournalRecord): void {
    const map = this.#map(record.t as Kind);
    if (!map) return; // a record type of a newer version: ignore rather than fail to start
    if (record.v === undefined) map.delete(record.id);
    else map.set(record.id, record.v);
  }

  #map(kind: Kind): Map<string, unknown> | undefined {
    switch (kind) {
      case 'api':
        return this.#apis;
      case 'policy':
        return this.#policies;
      case 'cert':
        return this.#certs;
      case 'key':
        return this.#keys;
      case 'quota':
        return this.#quotas;
      default:
        return undefined;
    }
  }

  *#records(): Iterable<JournalRecord> {
    const kinds: [Kind, Map<string, unknown>][] = [
      ['api', this.#apis],
      ['policy', this.#policies],
      ['cert', this.#certs],
      ['key', this.#keys],
      ['quota', this.#quotas],
    ];
    for (const [t, map] of kinds) for (const [id, v] of map) yield { t, id, v };
  }

  #sweepIdleWindows(): void {
    const now = Date.now();
    for (const [key, window] of this.#rates) if (window.idle(now)) this.#rates.delete(key);
    this.#responses.sweep(now);
  }
}

/** Counter keys are `<owner>` or `<owner>|<scope>`. */
function belongsTo(counterKey: string, owner: string): boolean {
  return counterKey === owner || counterKey.startsWith(`${owner}|`);
}
