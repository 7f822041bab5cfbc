// Credential -> storage id (its SHA-256 with hash_keys), remembered for the most recent credentials so a client
// sending the same key again and again is not hashed on every request. Bounded: the oldest entries go first.
// Holds credentials in memory, which the process sees on every request anyway; never written anywhere.
import { storageIdOf } from './keys.ts';

export class StorageIds {
  readonly #ids = new Map<string, string>();
  readonly #max: number;

  constructor(maxEntries = 10_000) {
    this.#max = maxEntries;
  }

  of(credential: string, hashKeys: boolean): string {
    if (!hashKeys) return credential;
    let id = this.#ids.get(credential);
    if (id === undefined) {
      if (this.#ids.size >= this.#max) this.#ids.delete(this.#ids.keys().next().value!);
      id = storageIdOf(credential, true);
      this.#ids.set(credential, id);
    }
    return id;
  }
}
