// The embedded store's response cache: entries in memory only (a restart empties it, as a cache may), each until
// its expiry, all of them together within `maxBytes` — beyond that the oldest entries are dropped first. Expired
// entries go when read and on the store's periodic sweep. Never journaled.
export class MemoryResponseCache {
  readonly #maxBytes: number;
  /** Insertion order is age order: the first entries are the oldest. */
  readonly #entries = new Map<string, { entry: Buffer; expiresAt: number }>();
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string, now: number): Buffer | undefined {
    const found = this.#entries.get(key);
    if (!found) return undefined;
    if (found.expiresAt > now) return found.entry;
    this.#delete(key);
    return undefined;
  }

  put(key: string, entry: Buffer, ttlMs: number, now: number): void {
    this.#delete(key);
    if (ttlMs <= 0 || entry.length > this.#maxBytes) return;
    this.#entries.set(key, { entry, expiresAt: now + ttlMs });
    this.#bytes += entry.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#delete(oldest);
    }
  }

  sweep(now: number): void {
    for (const [key, { expiresAt }] of this.#entries) if (expiresAt <= now) this.#delete(key);
  }

  #delete(key: string): void {
    const found = this.#entries.get(key);
    if (!found) return;
    this.#bytes -= found.entry.length;
    this.#entries.delete(key);
  }
}
