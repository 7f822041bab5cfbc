// The embedded store's response cache: entries in memory only (a restart empties it, as a cache may), each until
// its expiry, all of them together within `maxBytes` — beyond that the oldest entries are dropped first. Expired
// entries go when read and on the store's periodic sweep; an API's entries all go at once on request. Never journaled.
interface CachedEntry {
  entry: Buffer;
  expiresAt: number;
}

export class MemoryResponseCache {
  readonly #maxBytes: number;
  /** By API, then key. Insertion order of `#age` is age order: its first entries are the oldest. */
  readonly #apis = new Map<string, Map<string, CachedEntry>>();
  readonly #age = new Map<string, [apiId: string, key: string]>();
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(apiId: string, key: string, now: number): Buffer | undefined {
    const found = this.#apis.get(apiId)?.get(key);
    if (!found) return undefined;
    if (found.expiresAt > now) return found.entry;
    this.#delete(apiId, key);
    return undefined;
  }

  put(apiId: string, key: string, entry: Buffer, ttlMs: number, now: number): void {
    this.#delete(apiId, key);
    if (ttlMs <= 0 || entry.length > this.#maxBytes) return;
    let entries = this.#apis.get(apiId);
    if (!entries) this.#apis.set(apiId, (entries = new Map<string, CachedEntry>()));
    entries.set(key, { entry, expiresAt: now + ttlMs });
    this.#age.set(ageKey(apiId, key), [apiId, key]);
    this.#bytes += entry.length;
    for (const [oldestApi, oldestKey] of this.#age.values()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#delete(oldestApi, oldestKey);
    }
  }

  deleteApi(apiId: string): void {
    for (const key of [...(this.#apis.get(apiId)?.keys() ?? [])]) this.#delete(apiId, key);
  }

  sweep(now: number): void {
    for (const [apiId, entries] of this.#apis) {
      for (const [key, { expiresAt }] of entries) if (expiresAt <= now) this.#delete(apiId, key);
    }
  }

  #delete(apiId: string, key: string): void {
    const entries = this.#apis.get(apiId);
    const found = entries?.get(key);
    if (!entries || !found) return;
    this.#bytes -= found.entry.length;
    entries.delete(key);
    if (entries.size === 0) this.#apis.delete(apiId);
    this.#age.delete(ageKey(apiId, key));
  }
}

function ageKey(apiId: string, key: string): string {
  return `${apiId}\n${key}`;
}
