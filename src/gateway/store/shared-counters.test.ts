import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { decideLimits } from './limit-decision.ts';
import { RateWindow, type QuotaCounter } from './limits.ts';
import { SharedCounterDirectory } from './shared-counter-directory.ts';
import { SharedCounters } from './shared-counters.ts';
import type { LimitCheck, LimitResult } from './store.ts';

const rateCheck = (rate: number, perMs: number): LimitCheck => ({ rate: { key: 'k', rate, perMs } });

/** The same checks decided on plain maps (one thread's store) and on a slot must answer alike. */
function onMaps(): (check: LimitCheck, now: number) => LimitResult {
  let window: RateWindow | undefined;
  let quota: QuotaCounter | undefined;
  return (check, now) =>
    decideLimits(check, now, {
      ring: () => window?.ring,
      newRing: (rate) => (window = new RateWindow(rate)).ring,
      grow: (ring, capacity) => RateWindow.grow(ring, capacity),
      quota: () => quota,
      setQuota: (counter) => (quota = counter),
    })!;
}

describe('SharedCounters on one thread', () => {
  it('decides a slot exactly as the store decides on its own maps: rate, quota, dry runs, growth, a changed rate', () => {
    const directory = new SharedCounterDirectory({ slots: 4, arenaEntries: 4096 });
    const ref = directory.share('k', undefined, undefined, 1000)!;
    const maps = onMaps();
    const checks: [LimitCheck, number][] = [];
    for (let t = 0; t < 300; t++) checks.push([{ ...rateCheck(200, 100), quota: { key: 'k', max: 250, renewalMs: 1000 } }, t]);
    for (let t = 300; t < 320; t++) checks.push([{ ...rateCheck(5, 100), dryRun: t % 2 === 0 }, t]);
    for (let t = 1000; t < 1100; t++) checks.push([{ quota: { key: 'k', max: 250, renewalMs: 1000 } }, t]);
    for (const [check, now] of checks) expect(directory.counters.decide(ref, check, now)).toEqual(maps(check, now));
  });

  it('refuses a stale mapping: a freed slot given to another key has a new generation', () => {
    const directory = new SharedCounterDirectory({ slots: 1, arenaEntries: 64 });
    const first = directory.share('a', { used: 3, renewsAt: 0 }, undefined, undefined)!;
    directory.unshare('a');
    const second = directory.share('b', undefined, undefined, undefined)!;
    expect(second.slot).toBe(first.slot);
    expect(directory.counters.decide(first, { quota: { key: 'a', max: 5, renewalMs: 0 } }, 0)).toBeUndefined();
    expect(directory.counters.decide(second, { quota: { key: 'b', max: 5, renewalMs: 0 } }, 0)).toMatchObject({ quota: { used: 1 } });
    expect(directory.share('c', undefined, undefined, undefined)).toBeUndefined(); // the table is full
  });

  it('starts from the state the primary held: the quota count and the rate log move into the slot', () => {
    const window = new RateWindow(10);
    for (let t = 0; t < 4; t++) window.check(10, 1000, t);
    const directory = new SharedCounterDirectory({ slots: 2, arenaEntries: 64 });
    const ref = directory.share('k', { used: 7, renewsAt: 0 }, window.ring, 10)!;
    const check: LimitCheck = { rate: { key: 'k', rate: 10, perMs: 1000 }, quota: { key: 'k', max: 100, renewalMs: 0 } };
    expect(directory.counters.decide(ref, check, 10)).toEqual({
      outcome: 'allowed',
      rate: { remaining: 5, retryAfterMs: 0 },
      quota: { used: 8, remaining: 92, renewsAt: 0 },
    });
  });

  it('answers undefined, consuming nothing, when a rate log needs more room than the arena has', () => {
    const directory = new SharedCounterDirectory({ slots: 2, arenaEntries: 32 });
    const ref = directory.share('k', undefined, undefined, 1000)!;
    const check: LimitCheck = { rate: { key: 'k', rate: 1000, perMs: 60_000 }, quota: { key: 'k', max: 1000, renewalMs: 0 } };
    for (let t = 0; t < 16; t++) expect(directory.counters.decide(ref, check, t)?.outcome).toBe('allowed');
    // 16 entries fill the first block, 32 would need the whole arena again: no room while the first is held.
    expect(directory.counters.decide(ref, check, 16)).toBeUndefined();
    expect(directory.counters.readQuota(ref.slot)).toEqual({ used: 16, renewsAt: 0 });
    expect(directory.counters.readRing(ref.slot)?.size).toBe(16);
  });

  it('hands every changed quota counter to the primary once, with its latest value, and forgets reset ones', () => {
    const directory = new SharedCounterDirectory({ slots: 4, arenaEntries: 64 });
    const a = directory.share('a', undefined, undefined, undefined)!;
    const b = directory.share('b', undefined, undefined, undefined)!;
    for (let i = 0; i < 3; i++) directory.counters.decide(a, { quota: { key: 'a', max: 9, renewalMs: 0 } }, i);
    directory.counters.decide(b, { quota: { key: 'b', max: 9, renewalMs: 0 } }, 0);
    directory.counters.clearQuota(b.slot);
    const seen: [string, QuotaCounter | undefined][] = [];
    directory.drain((key, counter) => seen.push([key, counter]));
    expect(seen).toEqual([
      ['a', { used: 3, renewsAt: 0 }],
      ['b', undefined],
    ]);
    directory.drain((key) => seen.push([key, undefined]));
    expect(seen).toHaveLength(2);
  });

  it('frees idle slots in the sweep, never one whose count the journal has not had', () => {
    const directory = new SharedCounterDirectory({ slots: 4, arenaEntries: 64 });
    const ref = directory.share('k', undefined, undefined, 5)!;
    directory.counters.decide(ref, { rate: { key: 'k', rate: 5, perMs: 100 }, quota: { key: 'k', max: 5, renewalMs: 0 } }, 0);
    directory.sweep(1000);
    expect(directory.slotOf('k')).toBeDefined(); // dirty: its count is not journaled yet
    directory.drain(() => undefined);
    directory.sweep(50);
    expect(directory.slotOf('k')).toBeDefined(); // its rate log is still in the window
    directory.sweep(1000);
    expect(directory.slotOf('k')).toBeUndefined();
  });

  it("releases the lock a dead thread held, and only that thread's", () => {
    const counters = SharedCounters.create({ slots: 1, arenaEntries: 16 });
    const words = new Int32Array(counters.buffer, 0, 1);
    Atomics.store(words, 0, 3); // worker 2 (tag 3) died holding it
    expect(counters.releaseHeldBy(2)).toBe(false);
    expect(counters.releaseHeldBy(3)).toBe(true);
    expect(counters.readQuota(0)).toBeUndefined(); // the lock can be taken again
  });
});

// Real threads deciding on one slot at once: exactly the limit passes, whatever the interleaving.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then(({ SharedCounters }) => {
  const counters = new SharedCounters(workerData.buffer, workerData.tag);
  let allowed = 0;
  for (let i = 0; i < workerData.checks; i++) {
    const result = counters.decide(workerData.ref, workerData.check, workerData.now + i);
    if (result === undefined) throw new Error('no decision');
    if (result.outcome === 'allowed') allowed++;
  }
  parentPort.postMessage(allowed);
});
`;

async function decideOnThreads(
  threads: number,
  checks: number,
  check: LimitCheck,
  directory: SharedCounterDirectory,
  ref: { slot: number; gen: number },
): Promise<number[]> {
  const module = new URL('./shared-counters.ts', import.meta.url).href;
  return Promise.all(
    Array.from({ length: threads }, (_, i) => {
      const worker = new Worker(THREAD, { eval: true, workerData: { module, buffer: directory.counters.buffer, tag: i + 1, ref, check, checks, now: 0 } });
      return new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    }),
  );
}

describe('SharedCounters across worker threads', () => {
  it('a quota: exactly max requests pass among 3 threads checking at once', async () => {
    const directory = new SharedCounterDirectory({ slots: 4, arenaEntries: 1024 });
    const ref = directory.share('k', undefined, undefined, undefined)!;
    const allowed = await decideOnThreads(3, 20_000, { quota: { key: 'k', max: 45_000, renewalMs: 0 } }, directory, ref);
    expect(allowed.reduce((a, b) => a + b, 0)).toBe(45_000);
    expect(directory.counters.readQuota(ref.slot)).toEqual({ used: 45_000, renewsAt: 0 });
  });

  it('a rate limit whose log grows while threads race: exactly rate requests pass in the window', async () => {
    const directory = new SharedCounterDirectory({ slots: 4, arenaEntries: 1 << 16 });
    const ref = directory.share('k', undefined, undefined, 30_000)!;
    const allowed = await decideOnThreads(3, 15_000, { rate: { key: 'k', rate: 30_000, perMs: 3_600_000 } }, directory, ref);
    expect(allowed.reduce((a, b) => a + b, 0)).toBe(30_000);
    expect(directory.counters.readRing(ref.slot)?.size).toBe(30_000);
  });
});
