// The embedded store as a worker thread sees it: every call goes to the primary, which owns the one EmbeddedStore
// (its journal, its directory lock, its counters) and answers in the order calls arrive (store-owner.ts): about
// 18 µs of latency and 9 µs of CPU on each side per call (docs/architecture.md).
//
// Limits: with shared counters (the primary's EmbeddedStore.shareCounters, docs/architecture.md §5) a worker decides a
// limited request itself on the key's slot, with no message at all: the first check of a key goes to the primary,
// which answers with the key's slot, remembered here (key → slot and generation) until the primary frees it.
//
// A key written through another worker reaches this one as a `keyChanged` message, so its session cache drops it
// as it would a change another gateway announced on Redis. Reloads are the primary's rounds, never the store's:
// onReload subscribes to nothing, publishReload asks the primary for a round over every worker.
import type { Session } from '../../domain/session.ts';
import { counterKey } from '../store/embedded.ts';
import type { SharedCounters, SlotRef } from '../store/shared-counters.ts';
import type { LimitCheck, LimitResult, Quota, QuotaState, Store, StoredApi, StoredCert, StoredPolicy } from '../store/store.ts';

export type StoreCall = (method: string, args: unknown[]) => Promise<unknown>;

export class RemoteStore implements Store {
  readonly kind = 'embedded' as const;
  readonly #call: StoreCall;
  readonly #keyListeners = new Set<(storageId: string | undefined) => void>();
  readonly #shared: SharedCounters | undefined;
  /** The slots the primary gave this worker: bounded by the table's size (a stale one is dropped when met). */
  readonly #slots = new Map<string, SlotRef>();
  readonly checkLimitsSync: ((check: LimitCheck, now: number) => LimitResult | undefined) | undefined;

  constructor(call: StoreCall, shared?: SharedCounters) {
    this.#call = call;
    this.#shared = shared;
    this.checkLimitsSync = shared ? (check, now) => this.#decideHere(check, now) : undefined;
  }

  /** Another worker changed this key: drop it from local caches. */
  keyChanged(storageId: string): void {
    for (const listener of this.#keyListeners) listener(storageId);
  }

  listApis(): Promise<StoredApi[]> {
    return this.#ask('listApis');
  }
  getApi(id: string): Promise<StoredApi | undefined> {
    return this.#ask('getApi', id);
  }
  putApi(api: StoredApi): Promise<void> {
    return this.#ask('putApi', api);
  }
  deleteApi(id: string): Promise<boolean> {
    return this.#ask('deleteApi', id);
  }
  listPolicies(): Promise<StoredPolicy[]> {
    return this.#ask('listPolicies');
  }
  getPolicy(id: string): Promise<StoredPolicy | undefined> {
    return this.#ask('getPolicy', id);
  }
  putPolicy(policy: StoredPolicy): Promise<void> {
    return this.#ask('putPolicy', policy);
  }
  deletePolicy(id: string): Promise<boolean> {
    return this.#ask('deletePolicy', id);
  }
  listCerts(): Promise<StoredCert[]> {
    return this.#ask('listCerts');
  }
  getCert(id: string): Promise<StoredCert | undefined> {
    return this.#ask('getCert', id);
  }
  putCert(cert: StoredCert): Promise<void> {
    return this.#ask('putCert', cert);
  }
  deleteCert(id: string): Promise<boolean> {
    return this.#ask('deleteCert', id);
  }
  getKey(storageId: string): Promise<Session | undefined> {
    return this.#ask('getKey', storageId);
  }
  putKey(storageId: string, session: Session, options: { resetCounters?: boolean } = {}): Promise<void> {
    return this.#ask('putKey', storageId, session, options);
  }
  deleteKey(storageId: string): Promise<boolean> {
    return this.#ask('deleteKey', storageId);
  }
  listKeys(): Promise<string[]> {
    return this.#ask('listKeys');
  }
  async checkLimits(check: LimitCheck, now: number): Promise<LimitResult> {
    if (!this.#shared) return this.#ask('checkLimits', check, now);
    const here = this.#decideHere(check, now);
    if (here) return here;
    const { result, share } = await this.#ask<{ result: LimitResult; share?: SlotRef }>('checkLimitsSharing', check, now);
    if (share) {
      if (this.#slots.size >= this.#shared.slotCount) this.#slots.clear();
      this.#slots.set(counterKey(check), share);
    }
    return result;
  }
  peekQuota(quota: Quota, now: number): Promise<QuotaState> {
    return this.#ask('peekQuota', quota, now);
  }
  resetCounters(keyPrefix: string): Promise<void> {
    return this.#ask('resetCounters', keyPrefix);
  }
  async getCachedResponse(apiId: string, key: string, now: number): Promise<Buffer | undefined> {
    // A Buffer crosses threads as a plain Uint8Array: view it as a Buffer again (no copy).
    const entry = await this.#ask<Uint8Array | undefined>('getCachedResponse', apiId, key, now);
    return entry && Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
  }
  putCachedResponse(apiId: string, key: string, entry: Buffer, ttlMs: number, now: number): Promise<void> {
    return this.#ask('putCachedResponse', apiId, key, entry, ttlMs, now);
  }
  deleteCachedResponses(apiId: string): Promise<void> {
    return this.#ask('deleteCachedResponses', apiId);
  }
  publishReload(group: string): Promise<void> {
    return this.#ask('publishReload', group);
  }
  async onReload(): Promise<() => void> {
    return () => undefined;
  }
  onKeyChanged(listener: (storageId: string | undefined) => void): void {
    this.#keyListeners.add(listener);
  }
  async ping(): Promise<boolean> {
    try {
      return await this.#ask<boolean>('ping');
    } catch {
      return false;
    }
  }
  async close(): Promise<void> {
    // The primary closes the store once every worker has stopped.
  }

  /** The check decided on the key's shared slot; undefined when this worker holds none for it (or a stale one). */
  #decideHere(check: LimitCheck, now: number): LimitResult | undefined {
    const key = counterKey(check);
    const ref = this.#slots.get(key);
    if (!ref) return undefined;
    const result = this.#shared!.decide(ref, check, now);
    if (!result) this.#slots.delete(key);
    return result;
  }

  #ask<T>(method: string, ...args: unknown[]): Promise<T> {
    return this.#call(method, args) as Promise<T>;
  }
}
