// The primary's side of the shared counters (shared-counters.ts): which counter key holds which slot. Worker
// threads never see a key's slot until they ask the primary about that key (a limit check it decides for them and
// answers with the slot: remote-store.ts); from then on they decide on the slot themselves. Slots are handed out on
// first use and freed by the sweep once idle, so the table holds the keys in use, not every key ever limited.
// Keys beyond the table's size stay with the primary, decided on its own maps as with one worker.
import type { QuotaCounter, RingLog } from './limits.ts';
import { SharedCounters, type SharedCountersSize, type SlotRef } from './shared-counters.ts';

export class SharedCounterDirectory {
  readonly counters: SharedCounters;
  readonly #slotOf = new Map<string, SlotRef>();
  readonly #keyOf: (string | undefined)[] = [];
  /** Slots freed by the sweep, reused first; then never-used ones from #nextUnused. */
  readonly #freed: number[] = [];
  #nextUnused = 0;

  constructor(size: SharedCountersSize = {}) {
    this.counters = SharedCounters.create(size);
  }

  /** The key's slot, if it holds one. */
  slotOf(key: string): SlotRef | undefined {
    return this.#slotOf.get(key);
  }

  /**
   * Gives `key` a slot holding its state so far (its quota counter, its rate log); undefined when the table or the
   * arena is full (the key stays with the primary).
   */
  share(key: string, quota: QuotaCounter | undefined, window: RingLog | undefined, rate: number | undefined): SlotRef | undefined {
    const slot = this.#freed.pop() ?? (this.#nextUnused < this.counters.slotCount ? this.#nextUnused++ : undefined);
    if (slot === undefined) return undefined;
    const gen = this.counters.open(slot, quota, window, rate);
    if (gen === undefined) {
      this.#freed.push(slot);
      return undefined;
    }
    const ref = { slot, gen };
    this.#slotOf.set(key, ref);
    this.#keyOf[slot] = key;
    return ref;
  }

  /** Takes the slot back from `key` (its state copied out first by the caller, if it is still wanted). */
  unshare(key: string): void {
    const ref = this.#slotOf.get(key);
    if (!ref) return;
    this.counters.release(ref.slot);
    this.#slotOf.delete(key);
    this.#keyOf[ref.slot] = undefined;
    this.#freed.push(ref.slot);
  }

  /** Every key holding a slot, with it. */
  entries(): IterableIterator<[string, SlotRef]> {
    return this.#slotOf.entries();
  }

  /** Calls `visit` with every key whose quota counter changed since the last call (undefined: it was reset). */
  drain(visit: (key: string, counter: QuotaCounter | undefined) => void): void {
    this.counters.takeDirty((slot, counter) => {
      const key = this.#keyOf[slot];
      if (key !== undefined) visit(key, counter);
    });
  }

  /** Frees the slots of keys whose rate log is idle at `now` and whose quota count the journal has. */
  sweep(now: number): void {
    for (const [key, ref] of [...this.#slotOf]) if (this.counters.idle(ref.slot, now)) this.unshare(key);
  }
}
