import { describe, expect, it } from 'vitest';
import type { Session } from '../../domain/session.ts';
import type { Store } from '../store/store.ts';
import { SessionCache } from './session-cache.ts';

/** A store holding keys in a Map, counting reads, whose key-change listener the test calls. */
function fakeStore(keys: Map<string, Session>) {
  const state = { reads: 0, listener: undefined as ((id: string | undefined) => void) | undefined };
  const store = {
    getKey: (id: string) => {
      state.reads++;
      return Promise.resolve(keys.get(id));
    },
    onKeyChanged: (listener: (id: string | undefined) => void) => {
      state.listener = listener;
    },
  } as unknown as Store;
  return { store, state };
}

const session: Session = { access_rights: { api: { api_id: 'api', versions: [] } } };

describe('SessionCache', () => {
  it('reads a stored key again once it has been cached ttlMs', async () => {
    let clock = 0;
    const { store, state } = fakeStore(new Map([['k', session]]));
    const cache = new SessionCache(store, () => undefined, { ttlMs: 1000, now: () => clock });
    expect(await cache.resolve('k')).toMatchObject({ ok: true });
    expect(cache.resolve('k')).toMatchObject({ ok: true }); // from memory: no promise
    expect(state.reads).toBe(1);
    clock = 1000;
    expect(cache.resolve('k')).toBeInstanceOf(Promise);
    expect(state.reads).toBe(2);
  });

  it('drops every stored key when the store says changes may have been missed', async () => {
    const keys = new Map([['k', session]]);
    const { store, state } = fakeStore(keys);
    const cache = new SessionCache(store, () => undefined, { ttlMs: 3_600_000, now: () => 0 });
    expect(await cache.resolve('k')).toMatchObject({ ok: true });
    keys.delete('k'); // deleted elsewhere, its notification lost
    expect(cache.resolve('k')).toMatchObject({ ok: true });
    state.listener!(undefined);
    expect(await cache.resolve('k')).toBeUndefined();
  });

  it('keeps at most maxEntries stored keys, dropping the least recently used (a hit counts as a use)', async () => {
    const { store, state } = fakeStore(
      new Map([
        ['a', session],
        ['b', session],
        ['c', session],
      ]),
    );
    const cache = new SessionCache(store, () => undefined, { maxEntries: 2, ttlMs: 3_600_000, now: () => 0 });
    await cache.resolve('a');
    await cache.resolve('b');
    expect(cache.resolve('a')).toMatchObject({ ok: true }); // a hit: a is now the most recently used
    await cache.resolve('c'); // drops b
    expect(state.reads).toBe(3);
    expect(cache.resolve('a')).toMatchObject({ ok: true });
    expect(cache.resolve('b')).toBeInstanceOf(Promise);
    expect(state.reads).toBe(4);
  });

  it('never resolves an organisation session as a client key', async () => {
    const { store } = fakeStore(new Map([['org/acme', session]]));
    const cache = new SessionCache(store, () => undefined);
    expect(cache.resolve('org/acme')).toBeUndefined();
    expect(await cache.resolveOrganisation('acme')).toMatchObject({ ok: true });
  });
});
