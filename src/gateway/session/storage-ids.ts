// Credential -> storage id (its SHA-256 with hash_keys), remembered for the most recent credentials so a client
// sending the same key again and again is not hashed on every request. Bounded by lru-cache (least recently used
// first out). No TTL: a credential's hash never changes, so an entry cannot go stale.
// Holds credentials in memory, which the process sees on every request anyway; never written anywhere.
import { LRUCache } from 'lru-cache';
import { storageIdOf } from './keys.ts';

export class StorageIds {
  readonly #ids: LRUCache<string, string>;

  constructor(maxEntries = 10_000) {
    this.#ids = new LRUCache({ max: maxEntries });
  }

  of(credential: string, hashKeys: boolean): string {
    if (!hashKeys) return credential;
    let id = this.#ids.get(credential);
    if (id === undefined) {
      id = storageIdOf(credential, true);
      this.#ids.set(credential, id);
    }
    return id;
  }
}
