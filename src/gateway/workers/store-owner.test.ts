// The embedded store shared by workers: RemoteStore clients talking over real MessageChannels (structured clone, as
// between threads) to one StoreOwner on a real EmbeddedStore.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../store/embedded.ts';
import { deserializeError, type ToPrimary, type ToWorker } from './protocol.ts';
import { RemoteStore } from './remote-store.ts';
import { StoreOwner } from './store-owner.ts';
import { SharedCounters } from '../store/shared-counters.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * One owner and `count` remote stores, each on its own channel; `reloads` counts publishReload calls, `calls` the
 * store calls by method. With `sharing`, the counters are shared (each remote store views them as a worker would).
 */
function sharedStore(
  count: number,
  { sharing = false } = {},
): { remotes: RemoteStore[]; reloads: () => number; calls: Map<string, number>; store: EmbeddedStore } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-workers-'));
  const store = EmbeddedStore.open(dir);
  const buffer = sharing ? store.shareCounters({ slots: 16, arenaEntries: 4096 }) : undefined;
  const ports: MessagePort[] = [];
  const calls = new Map<string, number>();
  let reloads = 0;
  const owner = new StoreOwner(store, {
    reloadRequested: () => reloads++,
    keyChanged: (from, storageId) => ports.forEach((port, index) => index !== from && port.postMessage({ t: 'keyChanged', storageId } satisfies ToWorker)),
  });
  const remotes = Array.from({ length: count }, (_, index) => {
    const { port1: primarySide, port2: workerSide } = new MessageChannel();
    ports.push(primarySide);
    primarySide.on('message', (message: ToPrimary) => {
      if (message.t === 'store') owner.handle(index, message.id, message.method, message.args, (answer) => primarySide.postMessage(answer));
    });
    const pending = new Map<number, (answer: Extract<ToWorker, { t: 'store' }>) => void>();
    let nextId = 1;
    const remote = new RemoteStore(
      (method, args) => {
        calls.set(method, (calls.get(method) ?? 0) + 1);
        const id = nextId++;
        return new Promise((resolve, reject) => {
          pending.set(id, (answer) => (answer.error ? reject(deserializeError(answer.error)) : resolve(answer.value)));
          workerSide.postMessage({ t: 'store', id, method, args } satisfies ToPrimary);
        });
      },
      buffer && new SharedCounters(buffer, index + 1),
    );
    workerSide.on('message', (message: ToWorker) => {
      if (message.t === 'keyChanged') remote.keyChanged(message.storageId);
      if (message.t === 'store') pending.get(message.id)?.(message);
    });
    cleanups.push(() => {
      primarySide.close();
      workerSide.close();
    });
    return remote;
  });
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { remotes, reloads: () => reloads, calls, store };
}

describe('StoreOwner and RemoteStore', () => {
  it('decides a rate limit and a quota in one place: exactly the limit passes across clients asking at once', async () => {
    const { remotes } = sharedStore(4);
    const rate = { key: 'k|rate', rate: 10, perMs: 10_000 };
    const quota = { key: 'k|quota', max: 7, renewalMs: 3_600_000 };
    const asks = (check: Parameters<RemoteStore['checkLimits']>[0]) =>
      Promise.all(Array.from({ length: 100 }, (_, i) => remotes[i % 4]!.checkLimits(check, 1000)));
    expect((await asks({ rate })).filter((r) => r.outcome === 'allowed')).toHaveLength(10);
    expect((await asks({ quota })).filter((r) => r.outcome === 'allowed')).toHaveLength(7);
    expect(await remotes[2]!.peekQuota(quota, 1000)).toMatchObject({ used: 7, remaining: 0 });
  });

  it('tells the other clients, not the writer, that a key changed', async () => {
    const { remotes } = sharedStore(3);
    const heard: string[][] = [[], [], []];
    remotes.forEach((remote, index) => remote.onKeyChanged((id) => heard[index]!.push(String(id))));
    await remotes[1]!.putKey('abc', { rate: 1, per: 1 });
    await remotes[1]!.deleteKey('abc');
    // Announcements leave before the writer's answer: they are here once a later round trip is.
    await remotes[0]!.ping();
    await remotes[2]!.ping();
    expect(heard).toEqual([['abc', 'abc'], [], ['abc', 'abc']]);
    expect(await remotes[0]!.getKey('abc')).toBeUndefined();
  });

  it('carries cached responses as Buffers, errors as errors, and a group reload to the primary', async () => {
    const { remotes, reloads } = sharedStore(2);
    await remotes[0]!.putCachedResponse('api', 'k', Buffer.from('hello'), 60_000, 1000);
    const cached = await remotes[1]!.getCachedResponse('api', 'k', 2000);
    expect(Buffer.isBuffer(cached) && cached.toString()).toBe('hello');
    await expect(remotes[0]!.putKey('bad', { meta_data: { n: 1n } })).rejects.toThrow(/BigInt/);
    await remotes[1]!.publishReload('default');
    expect(reloads()).toBe(1);
  });

  it('with shared counters: exactly the limit passes across clients, each deciding on its own after its first ask', async () => {
    const { remotes, calls } = sharedStore(4, { sharing: true });
    const check = { rate: { key: 'k', rate: 60, perMs: 10_000 }, quota: { key: 'k', max: 50, renewalMs: 3_600_000 } };
    const first = await Promise.all(remotes.map((remote) => remote.checkLimits(check, 1000)));
    expect(first.every((r) => r.outcome === 'allowed')).toBe(true);
    expect(calls.get('checkLimitsSharing')).toBe(4);
    const rest = await Promise.all(Array.from({ length: 100 }, (_, i) => remotes[i % 4]!.checkLimits(check, 1001)));
    expect(rest.filter((r) => r.outcome === 'allowed')).toHaveLength(46);
    expect(remotes[0]!.checkLimitsSync!(check, 1002)).toMatchObject({ outcome: 'quota_exceeded', quota: { used: 50 } });
    expect(calls.get('checkLimitsSharing')).toBe(4); // no further message: every later check was decided in place
    expect(calls.get('checkLimits')).toBeUndefined();
    expect(await remotes[2]!.peekQuota(check.quota, 1003)).toMatchObject({ used: 50, remaining: 0 });
  });

  it('with shared counters: a client whose slot the primary freed asks again, and the count goes on', async () => {
    const { remotes, calls, store } = sharedStore(2, { sharing: true });
    const check = { quota: { key: 'k', max: 10, renewalMs: 0 } };
    await remotes[0]!.checkLimits(check, 0);
    await remotes[0]!.checkLimits(check, 1);
    store.sweepIdle(2); // the key is idle (no rate log): its slot is freed, its count journaled first
    expect(store.sharedCounters!.slotOf('k')).toBeUndefined();
    expect(remotes[0]!.checkLimitsSync!(check, 3)).toBeUndefined();
    expect(await remotes[0]!.checkLimits(check, 3)).toMatchObject({ outcome: 'allowed', quota: { used: 3 } });
    expect(calls.get('checkLimitsSharing')).toBe(2);
  });
});
