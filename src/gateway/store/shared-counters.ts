// Rate windows and quota counters in a SharedArrayBuffer, so that every worker thread of one gateway decides its
// own limited requests, exactly, without a message round trip to the primary (docs/architecture.md §5). Each
// counter key the primary has given a SLOT holds, in fixed-size fields, its quota counter and its rate log (a ring of
// accepted-request times in a shared arena); every read and write of a slot happens under ONE lock (an Atomics word),
// so two workers never both take the last request of a window or a quota.
//
// No strings live here. The primary owns the key → slot directory (shared-counter-directory.ts) and tells a worker
// the slot and its GENERATION the first time that worker asks about a key; a slot the primary frees and hands to
// another key gets a new generation, so a worker holding a stale mapping is refused (undefined) and asks again.
// A quota change marks the slot dirty and queues it for the primary, which journals the counters it finds dirty
// (the embedded store's durability is unchanged: the latest value per counter, in batches).
//
// The lock word holds its holder's tag (a worker's index + 1, the primary's PRIMARY_TAG), so that a worker thread
// that dies holding it (killed mid-request) can have it released by the primary (releaseHeldBy). Waiters spin a
// little, then sleep on the word (Atomics.wait, woken by the unlock); the critical sections are a few hundred ns.
//
// Memory (one buffer, zero-filled, pages touched only when used): a header of 32 Int32 words, a ring of dirty slot
// indexes (one Int32 per slot), the slots (SLOT_FIELDS Float64 each) and the arena (Float64 entries) from which rate
// logs take blocks of 16 · 2^k entries; freed blocks go to a free list per size, their first entry linking the next.
import type { LimitCounters } from './limit-decision.ts';
import { decideLimits } from './limit-decision.ts';
import { copyRing, initialRingCapacity, ringIdle, type QuotaCounter, type RingLog } from './limits.ts';
import type { LimitCheck, LimitResult } from './store.ts';

// Header words.
const LOCK = 0;
const WAITERS = 1;
const DIRTY_COUNT = 2;
const BUMP = 3;
const FREE_LISTS = 4; // one head per size class
const SLOT_COUNT = 28;
const ARENA_ENTRIES = 29;
const HEADER_WORDS = 32;

// Slot fields.
const GEN = 0;
const USED = 1;
const RENEWS_AT = 2;
const HAS_QUOTA = 3; // 0: no quota counter (a fresh period starts at the next request)
const DIRTY = 4;
const BASE_PLUS_ONE = 5; // 0: no rate log (a zero-filled slot is an empty one)
const CAPACITY = 6;
const HEAD = 7;
const SIZE = 8;
const PER_MS = 9;
const SIZE_CLASS = 10;
const SLOT_FIELDS = 11;

const SMALLEST_BLOCK = 16;
const SIZE_CLASSES = 17; // 16 … 2^20 entries
/** The longest rate log a slot can hold (8 MiB); a key whose window needs more is decided by the primary alone. */
export const MAX_SHARED_RING = SMALLEST_BLOCK << (SIZE_CLASSES - 1);
export const PRIMARY_TAG = 0x7fff_ffff;
const SPINS = 64;

export interface SharedCountersSize {
  /** Counter keys that can hold a slot at once (beyond: decided by the primary). Default 65 536. */
  slots?: number;
  /** Rate-log entries of all slots together (8 bytes each). Default 2^23 (64 MiB of address space). */
  arenaEntries?: number;
}

/** A slot and the generation that makes a mapping to it valid. */
export interface SlotRef {
  slot: number;
  gen: number;
}

export class SharedCounters {
  readonly buffer: SharedArrayBuffer;
  readonly slotCount: number;
  readonly #tag: number;
  readonly #words: Int32Array;
  readonly #dirtyRing: Int32Array;
  readonly #slots: Float64Array;
  readonly #arena: Float64Array;
  /** The check in progress: the one LimitCounters object reads the slot it names (no allocation per check). */
  #slot = 0;
  #notify = false;
  /** The log of the check in progress, and whether the check read or made one (then it is written back). */
  #scratch!: RingLog;
  #ringInUse = false;
  readonly #counters: LimitCounters;

  /** A new, empty set of counters (the primary's). */
  static create({ slots = 65_536, arenaEntries = 1 << 23 }: SharedCountersSize = {}): SharedCounters {
    const dirtyOffset = HEADER_WORDS * 4;
    const slotsOffset = align8(dirtyOffset + slots * 4);
    const arenaOffset = slotsOffset + slots * SLOT_FIELDS * 8;
    const buffer = new SharedArrayBuffer(arenaOffset + arenaEntries * 8);
    const words = new Int32Array(buffer, 0, HEADER_WORDS);
    words[SLOT_COUNT] = slots;
    words[ARENA_ENTRIES] = arenaEntries;
    for (let k = 0; k < SIZE_CLASSES; k++) words[FREE_LISTS + k] = -1;
    return new SharedCounters(buffer, PRIMARY_TAG);
  }

  /** The counters `buffer` holds, as thread `tag` (a worker: its index + 1) sees them. */
  constructor(buffer: SharedArrayBuffer, tag: number) {
    this.buffer = buffer;
    this.#tag = tag;
    this.#words = new Int32Array(buffer, 0, HEADER_WORDS);
    this.slotCount = this.#words[SLOT_COUNT]!;
    const dirtyOffset = HEADER_WORDS * 4;
    const slotsOffset = align8(dirtyOffset + this.slotCount * 4);
    const arenaOffset = slotsOffset + this.slotCount * SLOT_FIELDS * 8;
    this.#dirtyRing = new Int32Array(buffer, dirtyOffset, this.slotCount);
    this.#slots = new Float64Array(buffer, slotsOffset, this.slotCount * SLOT_FIELDS);
    this.#arena = new Float64Array(buffer, arenaOffset, this.#words[ARENA_ENTRIES]);
    this.#scratch = { times: this.#arena, base: 0, capacity: 0, head: 0, size: 0, perMs: 0 };
    this.#counters = this.#slotCounters();
  }

  /**
   * Decides `check` on a slot, as every thread does. Undefined when the mapping is stale (the slot was freed or
   * given to another key: ask the primary again) or when its rate log needed room the arena does not have.
   */
  decide(ref: SlotRef, check: LimitCheck, now: number): LimitResult | undefined {
    this.#lock();
    let result: LimitResult | undefined;
    try {
      if (this.#field(ref.slot, GEN) !== ref.gen) return undefined;
      this.#slot = ref.slot;
      this.#ringInUse = false;
      result = decideLimits(check, now, this.#counters);
      if (this.#ringInUse) this.#storeRing();
    } finally {
      this.#unlock();
    }
    if (this.#notify) {
      this.#notify = false;
      Atomics.notify(this.#words, DIRTY_COUNT); // the primary sleeps on the count while nothing is dirty
    }
    return result;
  }

  // ---- The primary's operations (it alone hands slots out, so it alone knows which are free). ----

  /**
   * Gives `slot` (free) its key's state: the quota counter and the entries of a rate log held until now in the
   * primary's memory. Returns the new generation, or undefined when the log does not fit (the key stays unshared).
   */
  open(slot: number, quota: QuotaCounter | undefined, window: RingLog | undefined, rate: number | undefined): number | undefined {
    return this.#locked(() => {
      const capacity = window && window.size > 0 ? window.capacity : rate !== undefined ? initialRingCapacity(rate) : 0;
      if (capacity > 0) {
        const block = this.#allocate(capacity);
        if (block === undefined) return undefined;
        this.#setField(slot, BASE_PLUS_ONE, block.base + 1);
        this.#setField(slot, SIZE_CLASS, block.sizeClass);
        this.#setField(slot, CAPACITY, capacity);
        this.#setField(slot, HEAD, 0);
        this.#setField(slot, SIZE, window?.size ?? 0);
        this.#setField(slot, PER_MS, window?.perMs ?? 0);
        if (window) copyRing(window, this.#arena, block.base);
      }
      if (quota) {
        this.#setField(slot, USED, quota.used);
        this.#setField(slot, RENEWS_AT, quota.renewsAt);
        this.#setField(slot, HAS_QUOTA, 1);
      }
      return this.#field(slot, GEN);
    });
  }

  /** Frees `slot`: its rate log's block returns to the arena and a new generation voids every mapping to it. */
  release(slot: number): void {
    this.#locked(() => this.#clearSlot(slot));
  }

  /** The slot's quota counter as it stands (undefined: none). */
  readQuota(slot: number): QuotaCounter | undefined {
    return this.#locked(() => this.#quota(slot));
  }

  /** The slot's rate log, copied out (the primary keeps a key whose log outgrew the arena in its own memory). */
  readRing(slot: number): RingLog | undefined {
    return this.#locked(() => {
      const ring = this.#ring(slot);
      if (!ring) return undefined;
      const times = new Float64Array(Math.max(1, ring.capacity));
      copyRing(ring, times, 0);
      return { times, base: 0, capacity: times.length, head: 0, size: ring.size, perMs: ring.perMs };
    });
  }

  /** Forgets the slot's quota counter (a fresh period starts at its next request). */
  clearQuota(slot: number): void {
    this.#locked(() => {
      this.#setField(slot, USED, 0);
      this.#setField(slot, HAS_QUOTA, 0);
    });
  }

  /** Forgets the slot's rate log entries (its block stays). */
  clearRing(slot: number): void {
    this.#locked(() => this.#setField(slot, SIZE, 0));
  }

  /** True when the slot can be freed: its rate log has nothing left in the window and no count awaits the journal. */
  idle(slot: number, now: number): boolean {
    return this.#locked(() => {
      if (this.#field(slot, DIRTY) !== 0) return false;
      const ring = this.#ring(slot);
      return !ring || ringIdle(ring, now);
    });
  }

  /** Calls `visit` with every slot whose quota changed since the last call, and its counter (undefined: reset). */
  takeDirty(visit: (slot: number, counter: QuotaCounter | undefined) => void): void {
    const taken: [number, QuotaCounter | undefined][] = [];
    this.#locked(() => {
      const count = this.#words[DIRTY_COUNT]!;
      for (let i = 0; i < count; i++) {
        const slot = this.#dirtyRing[i]!;
        this.#setField(slot, DIRTY, 0);
        taken.push([slot, this.#quota(slot)]);
      }
      this.#words[DIRTY_COUNT] = 0;
    });
    for (const [slot, counter] of taken) visit(slot, counter);
  }

  /** Resolves once some slot is dirty (at once when one is). */
  async dirty(): Promise<void> {
    const wait = Atomics.waitAsync(this.#words, DIRTY_COUNT, 0);
    if (wait.async) await wait.value;
  }

  /** A worker thread died: if it held the lock, release it (its half-made change is at most one request's). */
  releaseHeldBy(tag: number): boolean {
    if (Atomics.compareExchange(this.#words, LOCK, tag, 0) !== tag) return false;
    Atomics.notify(this.#words, LOCK, 1);
    return true;
  }

  // ---- Below: under the lock. ----

  #slotCounters(): LimitCounters {
    // One object for every check, reading the slot `#slot` names (set under the lock before each decision). The
    // algorithm changes the log through `#scratch`, written back to the slot once the decision is made.
    const ring = this.#scratch;
    return {
      ring: () => {
        const base = this.#field(this.#slot, BASE_PLUS_ONE) - 1;
        if (base < 0) return undefined;
        ring.base = base;
        ring.capacity = this.#field(this.#slot, CAPACITY);
        ring.head = this.#field(this.#slot, HEAD);
        ring.size = this.#field(this.#slot, SIZE);
        ring.perMs = this.#field(this.#slot, PER_MS);
        this.#ringInUse = true;
        return ring;
      },
      newRing: (rate) => {
        const capacity = initialRingCapacity(rate);
        const block = this.#allocate(capacity);
        if (block === undefined) return undefined;
        this.#setField(this.#slot, SIZE_CLASS, block.sizeClass);
        ring.base = block.base;
        ring.capacity = capacity;
        ring.head = 0;
        ring.size = 0;
        ring.perMs = 0;
        this.#ringInUse = true;
        return ring;
      },
      grow: (_log, capacity) => {
        const block = this.#allocate(capacity);
        if (block === undefined) return false;
        copyRing(ring, this.#arena, block.base);
        this.#free(ring.base, this.#field(this.#slot, SIZE_CLASS));
        this.#setField(this.#slot, SIZE_CLASS, block.sizeClass);
        ring.base = block.base;
        ring.capacity = capacity;
        ring.head = 0;
        return true;
      },
      quota: () => this.#quota(this.#slot),
      setQuota: (counter) => {
        const slot = this.#slot;
        this.#setField(slot, USED, counter.used);
        this.#setField(slot, RENEWS_AT, counter.renewsAt);
        this.#setField(slot, HAS_QUOTA, 1);
        if (this.#field(slot, DIRTY) === 0) {
          this.#setField(slot, DIRTY, 1);
          const count = this.#words[DIRTY_COUNT]!;
          this.#dirtyRing[count] = slot;
          Atomics.store(this.#words, DIRTY_COUNT, count + 1);
          if (count === 0) this.#notify = true;
        }
      },
    };
  }

  /** Writes the scratch log back to the slot the check was about. */
  #storeRing(): void {
    const ring = this.#scratch;
    this.#setField(this.#slot, BASE_PLUS_ONE, ring.base + 1);
    this.#setField(this.#slot, CAPACITY, ring.capacity);
    this.#setField(this.#slot, HEAD, ring.head);
    this.#setField(this.#slot, SIZE, ring.size);
    this.#setField(this.#slot, PER_MS, ring.perMs);
  }

  #quota(slot: number): QuotaCounter | undefined {
    return this.#field(slot, HAS_QUOTA) === 0 ? undefined : { used: this.#field(slot, USED), renewsAt: this.#field(slot, RENEWS_AT) };
  }

  #ring(slot: number): RingLog | undefined {
    const base = this.#field(slot, BASE_PLUS_ONE) - 1;
    if (base < 0) return undefined;
    return {
      times: this.#arena,
      base,
      capacity: this.#field(slot, CAPACITY),
      head: this.#field(slot, HEAD),
      size: this.#field(slot, SIZE),
      perMs: this.#field(slot, PER_MS),
    };
  }

  #clearSlot(slot: number): void {
    const base = this.#field(slot, BASE_PLUS_ONE) - 1;
    if (base >= 0) this.#free(base, this.#field(slot, SIZE_CLASS));
    const gen = this.#field(slot, GEN) + 1;
    this.#slots.fill(0, slot * SLOT_FIELDS, (slot + 1) * SLOT_FIELDS);
    this.#setField(slot, GEN, gen);
  }

  /** A block of at least `capacity` entries, or undefined when the arena has none. */
  #allocate(capacity: number): { base: number; sizeClass: number } | undefined {
    let sizeClass = 0;
    while (SMALLEST_BLOCK << sizeClass < capacity) sizeClass++;
    if (sizeClass >= SIZE_CLASSES) return undefined;
    const head = this.#words[FREE_LISTS + sizeClass]!;
    if (head >= 0) {
      this.#words[FREE_LISTS + sizeClass] = this.#arena[head]!;
      return { base: head, sizeClass };
    }
    const bump = this.#words[BUMP]!;
    const entries = SMALLEST_BLOCK << sizeClass;
    if (bump + entries > this.#arena.length) return undefined;
    this.#words[BUMP] = bump + entries;
    return { base: bump, sizeClass };
  }

  #free(base: number, sizeClass: number): void {
    this.#arena[base] = this.#words[FREE_LISTS + sizeClass]!;
    this.#words[FREE_LISTS + sizeClass] = base;
  }

  #field(slot: number, field: number): number {
    return this.#slots[slot * SLOT_FIELDS + field]!;
  }

  #setField(slot: number, field: number, value: number): void {
    this.#slots[slot * SLOT_FIELDS + field] = value;
  }

  #locked<T>(run: () => T): T {
    this.#lock();
    try {
      return run();
    } finally {
      this.#unlock();
    }
  }

  #lock(): void {
    const words = this.#words;
    const tag = this.#tag;
    if (Atomics.compareExchange(words, LOCK, 0, tag) === 0) return;
    for (let spin = 0; ; spin++) {
      const holder = Atomics.load(words, LOCK);
      if (holder === 0) {
        if (Atomics.compareExchange(words, LOCK, 0, tag) === 0) return;
        continue;
      }
      if (spin < SPINS) continue;
      Atomics.add(words, WAITERS, 1);
      Atomics.wait(words, LOCK, holder, 1);
      Atomics.sub(words, WAITERS, 1);
    }
  }

  #unlock(): void {
    Atomics.store(this.#words, LOCK, 0);
    if (Atomics.load(this.#words, WAITERS) > 0) Atomics.notify(this.#words, LOCK, 1);
  }
}

function align8(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}
