// The informer's store: the latest object of every key, plus secondary indexes (index name -> value -> keys), so
// a controller can ask "which ApiDefinitions does this SecurityPolicy name?" or "which resources use this
// OperatorContext?" without scanning everything. Reads are from memory; only the reflector writes.
import { objectKey, type KubeObject } from './object.ts';

/** Values an object is indexed under (an object may be under several, or none). */
export type IndexFunc<T> = (object: T) => string[];

export class Cache<T extends KubeObject> {
  readonly #objects = new Map<string, T>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  readonly #indexes = new Map<string, Map<string, Set<string>>>();

  addIndex(name: string, index: IndexFunc<T>): void {
    if (this.#indexers.has(name)) throw new Error(`index ${name} exists`);
    this.#indexers.set(name, index);
    const values = new Map<string, Set<string>>();
    this.#indexes.set(name, values);
    for (const [key, object] of this.#objects) for (const value of index(object)) add(values, value, key);
  }

  get(key: string): T | undefined {
    return this.#objects.get(key);
  }

  list(namespace?: string): T[] {
    const all = [...this.#objects.values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace);
  }

  keys(): string[] {
    return [...this.#objects.keys()];
  }

  get size(): number {
    return this.#objects.size;
  }

  /** Objects whose index `name` contains `value`. */
  byIndex(name: string, value: string): T[] {
    const keys = this.#indexes.get(name)?.get(value);
    if (!keys) {
      if (!this.#indexes.has(name)) throw new Error(`no index ${name}`);
      return [];
    }
    return [...keys].map((key) => this.#objects.get(key)!);
  }

  /** Stores the object; returns the one it replaced. */
  upsert(object: T): T | undefined {
    const key = objectKey(object);
    const old = this.#objects.get(key);
    if (old) this.#unindex(key, old);
    this.#objects.set(key, object);
    for (const [name, index] of this.#indexers) for (const value of index(object)) add(this.#indexes.get(name)!, value, key);
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.#objects.get(key);
    if (!old) return undefined;
    this.#unindex(key, old);
    this.#objects.delete(key);
    return old;
  }

  #unindex(key: string, object: T): void {
    for (const [name, index] of this.#indexers) {
      const values = this.#indexes.get(name)!;
      for (const value of index(object)) {
        const keys = values.get(value);
        keys?.delete(key);
        if (keys?.size === 0) values.delete(value);
      }
    }
  }
}

function add(values: Map<string, Set<string>>, value: string, key: string): void {
  let keys = values.get(value);
  if (!keys) values.set(value, (keys = new Set()));
  keys.add(key);
}
