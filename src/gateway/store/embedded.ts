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
import { decideLimits, type LimitCounters } from './limit-decision.ts';
import { quotaState, RateWindow, type QuotaCounter } from './limits.ts';
import { SharedCounterDirectory } from './shared-counter-directory.ts';
import type { SharedCountersSize, SlotRef } from './shared-counters.ts';
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
  /** With worker threads: the counters they decide on themselves (shareCounters). */
  #shared: SharedCounterDirectory | undefined;
  #drainTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** The key the map counters below are about, for the check in progress. */
  #checkKey = '';
  readonly #mapCounters: LimitCounters = {
    ring: () => this.#rates.get(this.#checkKey)?.ring,
    newRing: (rate) => {
      const window = new RateWindow(rate);
      this.#rates.set(this.#checkKey, window);
      return window.ring;
    },
    grow: (ring, capacity) => RateWindow.grow(ring, capacity),
    quota: () => this.#quotas.get(this.#checkKey),
    setQuota: (counter) => this.#count(this.#checkKey, counter),
  };

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
    store.#sweeper = setInterval(() => store.sweepIdle(Date.now()), 60_000);
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
    const key = counterKey(check);
    if (this.#shared) {
      const ref = this.#shared.slotOf(key);
      if (ref) {
        const result = this.#shared.counters.decide(ref, check, now);
        if (result) return result;
        this.#unshare(key); // its rate log outgrew the shared arena: the primary decides on it from now on
      }
    }
    this.#checkKey = key;
    return decideLimits(check, now, this.#mapCounters)!;
  };

  /**
   * With worker threads (shareCounters): the check of a worker that holds no slot for the key yet. The key gets a
   * slot now when one is free (its state moves there from this store's maps); the answer carries it, so that the
   * worker decides on the key itself from its next request.
   */
  checkLimitsSharing(check: LimitCheck, now: number): { result: LimitResult; share?: SlotRef } {
    const key = counterKey(check);
    let share = this.#shared?.slotOf(key);
    if (this.#shared && !share) {
      const window = this.#rates.get(key);
      share = this.#shared.share(key, this.#quotas.get(key), window?.ring, check.rate?.rate);
      if (share) this.#rates.delete(key);
    }
    const result = this.checkLimitsSync(check, now);
    share = this.#shared?.slotOf(key); // gone again if the check found the arena full
    return share ? { result, share } : { result };
  }

  /**
   * Puts rate windows and quota counters in shared memory for worker threads (one per primary, before any worker
   * starts); their quota counts reach the journal as before, the latest value per counter every few milliseconds.
   */
  shareCounters(size: SharedCountersSize = {}): SharedArrayBuffer {
    this.#shared ??= new SharedCounterDirectory(size);
    void this.#journalSharedCounts(this.#shared);
    return this.#shared.counters.buffer;
  }

  /** The shared counters, for the primary's care of its workers (a dead worker's lock). */
  get sharedCounters(): SharedCounterDirectory | undefined {
    return this.#shared;
  }

  async peekQuota(quota: Quota, now: number): Promise<QuotaState> {
    return this.#quotaNow(quota, now);
  }

  async resetCounters(owner: string): Promise<void> {
    const resets = this.#counterResets(owner);
    if (resets.length > 0) await this.#writeAll(resets);
    this.#forgetRateWindows(owner);
  }

  /** The records that forget every quota counter of an owner (the shared ones' latest counts taken first). */
  #counterResets(owner: string): JournalRecord[] {
    this.#drainShared();
    return [...this.#quotas.keys()].filter((key) => belongsTo(key, owner)).map((key) => ({ t: 'quota', id: key }));
  }

  #forgetRateWindows(owner: string): void {
    for (const key of [...this.#rates.keys()]) if (belongsTo(key, owner)) this.#rates.delete(key);
    if (!this.#shared) return;
    for (const [key, ref] of this.#shared.entries()) if (belongsTo(key, owner)) this.#shared.counters.clearRing(ref.slot);
  }

  /** Journals the quota counts workers made in shared memory: woken by the first, then every COUNTER_BATCH_MS. */
  async #journalSharedCounts(shared: SharedCounterDirectory): Promise<void> {
    while (!this.#closed) {
      await shared.counters.dirty();
      if (this.#closed) return;
      await new Promise<void>((resolve) => (this.#drainTimer = setTimeout(resolve, SHARED_DRAIN_MS)));
      this.#drainShared();
    }
  }

  #drainShared(): void {
    this.#shared?.drain((key, counter) => {
      if (counter) this.#count(key, counter);
    });
  }

  /** Takes a key's counters back from shared memory into this store's maps. */
  #unshare(key: string): void {
    const shared = this.#shared!;
    const ref = shared.slotOf(key)!;
    this.#drainShared();
    const ring = shared.counters.readRing(ref.slot);
    if (ring) this.#rates.set(key, RateWindow.holding(ring));
    shared.unshare(key);
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
    this.#closed = true;
    if (this.#sweeper) clearInterval(this.#sweeper);
    if (this.#drainTimer) clearTimeout(this.#drainTimer);
    this.#drainShared();
    this.#journal.close();
    this.#lock?.release();
  }

  #quotaNow(quota: Quota, now: number): QuotaState {
    const ref = this.#shared?.slotOf(quota.key);
    const counter = ref ? this.#shared!.counters.readQuota(ref.slot) : this.#quotas.get(quota.key);
    return quotaState(counter, quota.max, quota.renewalMs, now);
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
    if (record.v === undefined) {
      map.delete(record.id);
      // A reset quota counter: forgotten where workers count it too.
      const ref = record.t === 'quota' ? this.#shared?.slotOf(record.id) : undefined;
      if (ref) this.#shared!.counters.clearQuota(ref.slot);
    } else map.set(record.id, record.v);
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

  /** Drops what is idle at `now`: rate windows nothing is left in, shared slots of such keys, expired responses. */
  sweepIdle(now: number): void {
    for (const [key, window] of this.#rates) if (window.idle(now)) this.#rates.delete(key);
    this.#drainShared(); // a slot is freed only once the journal has its count
    this.#shared?.sweep(now);
    this.#responses.sweep(now);
  }
}

/** How long the first quota count made in shared memory waits for others to be journaled with it (as Journal's). */
const SHARED_DRAIN_MS = 5;

/** The one counter key a check is about (the rate limit's and the quota's are the same key: key-limits.ts). */
export function counterKey(check: LimitCheck): string {
  if (check.rate && check.quota && check.rate.key !== check.quota.key) throw new Error('a limit check names one counter key');
  return (check.rate ?? check.quota)!.key;
}

/** Counter keys are `<owner>` or `<owner>|<scope>`. */
function belongsTo(counterKey: string, owner: string): boolean {
  return counterKey === owner || counterKey.startsWith(`${owner}|`);
}
