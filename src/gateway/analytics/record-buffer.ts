// The bounded in-memory buffer between the proxy and the analytics shipper: a ring of fixed capacity. The request
// path only pushes (O(1), no allocation beyond the record itself); a push into a full ring is refused, and the
// caller counts that record as dropped. The shipper reads from the front without removing (peek), and removes
// only what the dashboard accepted (discard), so a failed shipment is retried with the same records, in order.
// Must never: grow past its capacity, block, or throw on the request path.

export class RecordBuffer<T> {
  readonly capacity: number;
  readonly #slots: (T | undefined)[];
  #head = 0;
  #size = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`buffer capacity must be a positive integer: ${capacity}`);
    this.capacity = capacity;
    this.#slots = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** Adds at the back; false (nothing stored) when full. */
  push(item: T): boolean {
    if (this.#size === this.capacity) return false;
    this.#slots[(this.#head + this.#size) % this.capacity] = item;
    this.#size++;
    return true;
  }

  /** Up to `count` items from the front, oldest first, left in the buffer. */
  peek(count: number): T[] {
    const n = Math.min(count, this.#size);
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) out[i] = this.#slots[(this.#head + i) % this.capacity]!;
    return out;
  }

  /** Removes up to `count` items from the front. */
  discard(count: number): void {
    const n = Math.min(count, this.#size);
    for (let i = 0; i < n; i++) this.#slots[(this.#head + i) % this.capacity] = undefined;
    this.#head = (this.#head + n) % this.capacity;
    this.#size -= n;
  }
}
