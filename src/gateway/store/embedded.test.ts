import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedStore } from './embedded.ts';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-embedded-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('EmbeddedStore', () => {
  it('writes a key and its counter reset as one step: both or neither', async () => {
    const store = EmbeddedStore.open(freshDir());
    const quota = { key: 'k1', max: 10, renewalMs: 60_000 };
    await store.putKey('k1', { rate: 1, per: 1 });
    for (let i = 0; i < 3; i++) await store.checkLimits({ quota }, 1000);
    await expect(store.putKey('k1', { rate: 2, per: 1, meta_data: { n: 1n } }, { resetCounters: true })).rejects.toThrow(TypeError);
    expect(await store.getKey('k1')).toEqual({ rate: 1, per: 1 });
    expect((await store.peekQuota(quota, 2000)).used).toBe(3);
    await store.putKey('k1', { rate: 2, per: 1 }, { resetCounters: true });
    expect(await store.getKey('k1')).toEqual({ rate: 2, per: 1 });
    expect((await store.peekQuota(quota, 2000)).used).toBe(0);
    await store.close();
  });

  it('applies nothing when a write cannot be journaled: memory, the list and a reopen all stay as they were', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir);
    await store.putApi({ id: 'kept', format: 'classic', definition: { name: 'kept' } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { d: deep }; // JSON.stringify overflows the stack on this
    await expect(store.putApi({ id: 'deep', format: 'classic', definition: { config_data: deep } })).rejects.toThrow(RangeError);
    await expect(store.putPolicy({ id: 'big', name: 'x', rate: 1, per: 1, meta_data: { n: 1n } })).rejects.toThrow(TypeError);
    await expect(store.putKey('bad', { rate: 1, per: 1, meta_data: { n: 1n } })).rejects.toThrow(TypeError);
    expect(await store.getApi('deep')).toBeUndefined();
    expect((await store.listApis()).map((api) => api.id)).toEqual(['kept']);
    expect(await store.getPolicy('big')).toBeUndefined();
    expect(await store.listKeys()).toEqual([]);
    await store.putApi({ id: 'after', format: 'classic', definition: { name: 'after' } }); // the journal still works
    await store.close();

    const reopened = EmbeddedStore.open(dir);
    expect((await reopened.listApis()).map((api) => api.id).sort()).toEqual(['after', 'kept']);
    await reopened.close();
  });

  it('keeps APIs, policies, keys and quota counters across a reopen', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir);
    await store.putApi({ id: 'a1', format: 'classic', definition: { name: 'one' } });
    await store.putPolicy({ id: 'p1', name: 'gold', rate: 5, per: 1 });
    await store.putKey('k1', { rate: 1, per: 1, org_id: 'o' });
    await store.putKey('k2', { rate: 1, per: 1 });
    await store.deleteKey('k2');
    const quota = { key: 'k1', max: 10, renewalMs: 60_000 };
    for (let i = 0; i < 3; i++) await store.checkLimits({ quota }, 1000);
    await store.close();

    const reopened = EmbeddedStore.open(dir);
    expect(await reopened.getApi('a1')).toEqual({ id: 'a1', format: 'classic', definition: { name: 'one' } });
    expect(await reopened.getPolicy('p1')).toMatchObject({ name: 'gold' });
    expect(await reopened.listKeys()).toEqual(['k1']);
    expect(await reopened.peekQuota(quota, 2000)).toEqual({ used: 3, remaining: 7, renewsAt: 61_000 });
    await reopened.close();
  });

  it('with sync_counters, keeps every count made before a crash (no close, no fsync)', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir, { fsyncIntervalMs: 3_600_000, syncCounters: true });
    const quota = { key: 'k', max: 5, renewalMs: 0 };
    for (let i = 0; i < 4; i++) store.checkLimitsSync({ quota }, 1);
    // No close() and not one event-loop turn: what a SIGKILL leaves is what write(2) handed the kernel.
    const after = EmbeddedStore.open(dir);
    expect(await after.peekQuota(quota, 2)).toMatchObject({ used: 4, remaining: 1 });
    await after.close();
  });

  it('by default hands counts to the kernel in batches, within milliseconds', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir, { fsyncIntervalMs: 3_600_000 });
    const quota = { key: 'k', max: 5, renewalMs: 0 };
    for (let i = 0; i < 4; i++) store.checkLimitsSync({ quota }, 1);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the batch of this turn is written on the pool
    const after = EmbeddedStore.open(dir); // no close(): as after a SIGKILL
    expect(await after.peekQuota(quota, 2)).toMatchObject({ used: 4, remaining: 1 });
    await after.close();
  });

  it('acknowledges a management write only once it is on disk', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir);
    await store.putKey('durable', { rate: 1 });
    const after = EmbeddedStore.open(dir); // no close()
    expect(await after.getKey('durable')).toEqual({ rate: 1 });
    await after.close();
  });

  it('skips a line torn by a crash mid-write and goes on appending safely', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir);
    await store.putKey('kept', { rate: 1 });
    appendFileSync(join(dir, 'journal.jsonl'), '{"t":"key","id":"torn","v":{"ra');
    const recovered = EmbeddedStore.open(dir);
    expect(await recovered.listKeys()).toEqual(['kept']);
    await recovered.putKey('after', { rate: 2 });
    const again = EmbeddedStore.open(dir);
    expect((await again.listKeys()).sort()).toEqual(['after', 'kept']);
    await again.close();
  });

  it('compacts the journal into the snapshot', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir, { compactAtBytes: 2000 });
    for (let i = 0; i < 100; i++) await store.putKey('same', { rate: i });
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').length).toBeLessThan(2000);
    await store.close();
    const reopened = EmbeddedStore.open(dir);
    expect(await reopened.getKey('same')).toEqual({ rate: 99 });
    await reopened.close();
  });

  it('ignores record types it does not know (a newer version wrote them)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'snapshot.jsonl'), '{"t":"future","id":"x","v":1}\n{"t":"key","id":"k","v":{"rate":3}}\n');
    const store = EmbeddedStore.open(dir);
    expect(await store.getKey('k')).toEqual({ rate: 3 });
    await store.close();
  });

  it('consumes neither rate nor quota for a request one of them rejects', async () => {
    const store = EmbeddedStore.open(freshDir());
    const rate = { key: 'k', rate: 2, perMs: 1000 };
    const quota = { key: 'k', max: 1, renewalMs: 60_000 };
    expect((await store.checkLimits({ rate, quota }, 0)).outcome).toBe('allowed');
    expect((await store.checkLimits({ rate, quota }, 1)).outcome).toBe('quota_exceeded');
    // The quota rejection did not take the second rate slot:
    expect((await store.checkLimits({ rate }, 2)).outcome).toBe('allowed');
    expect((await store.checkLimits({ rate }, 3)).outcome).toBe('rate_limited');
    await store.close();
  });

  it('resets the counters of one key and its scopes only', async () => {
    const store = EmbeddedStore.open(freshDir());
    const quotas = ['k1', 'k1|api-a', 'k10'].map((key) => ({ key, max: 1, renewalMs: 0 }));
    for (const quota of quotas) await store.checkLimits({ quota }, 0);
    await store.resetCounters('k1');
    expect((await store.peekQuota(quotas[0]!, 1)).used).toBe(0);
    expect((await store.peekQuota(quotas[1]!, 1)).used).toBe(0);
    expect((await store.peekQuota(quotas[2]!, 1)).used).toBe(1);
    await store.close();
  });
});

// With worker threads the primary's store shares its counters (shareCounters): a worker's first check of a key
// gets the key's slot (checkLimitsSharing), then decides on it itself, as `worker` below does on this thread.
describe('EmbeddedStore sharing its counters with worker threads', () => {
  const check = (key: string, max = 100) => ({ rate: { key, rate: 50, perMs: 1000 }, quota: { key, max, renewalMs: 0 } });

  it('moves what a key has counted into its slot, and journals what workers count there', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir);
    const directory = (store.shareCounters({ slots: 8, arenaEntries: 1024 }), store.sharedCounters!);
    for (let t = 0; t < 3; t++) store.checkLimitsSync(check('k'), t); // counted by the primary before any worker asked
    const { result, share } = store.checkLimitsSharing(check('k'), 3);
    expect(result).toMatchObject({ outcome: 'allowed', rate: { remaining: 46 }, quota: { used: 4 } });
    for (let t = 4; t < 10; t++) expect(directory.counters.decide(share!, check('k'), t)?.outcome).toBe('allowed');
    expect(await store.peekQuota(check('k').quota, 10)).toMatchObject({ used: 10 });
    await store.close();
    const reopened = EmbeddedStore.open(dir);
    expect(await reopened.peekQuota(check('k').quota, 10)).toMatchObject({ used: 10 });
    await reopened.close();
  });

  it('journals shared counts while it runs, not only at close (what a SIGKILL would otherwise lose)', async () => {
    const dir = freshDir();
    const store = EmbeddedStore.open(dir);
    store.shareCounters({ slots: 8, arenaEntries: 1024 });
    const { share } = store.checkLimitsSharing(check('k'), 0);
    for (let t = 1; t < 5; t++) store.sharedCounters!.counters.decide(share!, check('k'), t);
    const journal = join(dir, 'journal.jsonl');
    await waitFor(() => readFileSync(journal, 'utf8').includes('"used":5'));
    await store.close();
  });

  it('resets a shared key: its quota and rate log are forgotten where workers count them', async () => {
    const store = EmbeddedStore.open(freshDir());
    store.shareCounters({ slots: 8, arenaEntries: 1024 });
    const { share } = store.checkLimitsSharing(check('k', 3), 0);
    const counters = store.sharedCounters!.counters;
    expect(counters.decide(share!, check('k', 3), 1)?.outcome).toBe('allowed');
    expect(counters.decide(share!, check('k', 3), 2)?.outcome).toBe('allowed');
    expect(counters.decide(share!, check('k', 3), 3)?.outcome).toBe('quota_exceeded');
    await store.resetCounters('k');
    expect(counters.decide(share!, check('k', 3), 4)).toMatchObject({ outcome: 'allowed', rate: { remaining: 49 }, quota: { used: 1 } });
    await store.close();
  });

  it('takes a key back from shared memory when its rate log outgrows the arena, keeping its counts', async () => {
    const store = EmbeddedStore.open(freshDir());
    store.shareCounters({ slots: 8, arenaEntries: 32 });
    const big = { rate: { key: 'k', rate: 1000, perMs: 60_000 }, quota: { key: 'k', max: 1000, renewalMs: 0 } };
    const { share } = store.checkLimitsSharing(big, 0);
    for (let t = 1; t < 16; t++) store.sharedCounters!.counters.decide(share!, big, t);
    expect(store.sharedCounters!.counters.decide(share!, big, 16)).toBeUndefined(); // a worker asks the primary then:
    const { result, share: again } = store.checkLimitsSharing(big, 16);
    expect(again).toBeUndefined();
    expect(result).toMatchObject({ outcome: 'allowed', rate: { remaining: 983 }, quota: { used: 17 } });
    await store.close();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
