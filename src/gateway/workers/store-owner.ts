// The primary's side of the embedded store shared by worker threads (remote-store.ts): it runs each worker's call
// on the one EmbeddedStore, in arrival order, and answers with the value or the error. Only the Store's data
// methods are callable; reloads are the primary's (publishReload starts a round over every worker). A key written
// or deleted through one worker is announced to the others, whose session caches drop it.
import type { EmbeddedStore } from '../store/embedded.ts';
import type { Store } from '../store/store.ts';
import { serializeError, type ToWorker } from './protocol.ts';

const CALLABLE = new Set([
  'listApis',
  'getApi',
  'putApi',
  'deleteApi',
  'listPolicies',
  'getPolicy',
  'putPolicy',
  'deletePolicy',
  'listCerts',
  'getCert',
  'putCert',
  'deleteCert',
  'getKey',
  'putKey',
  'deleteKey',
  'listKeys',
  'checkLimits',
  'checkLimitsSharing',
  'peekQuota',
  'resetCounters',
  'getCachedResponse',
  'putCachedResponse',
  'deleteCachedResponses',
  'ping',
]);

const KEY_WRITES = new Set(['putKey', 'deleteKey']);

export interface StoreOwnerHooks {
  /** A worker asked the group to reload (publishReload). */
  reloadRequested(): void;
  /** Tell every worker but `from` that a key changed. */
  keyChanged(from: number, storageId: string): void;
}

export class StoreOwner {
  readonly #store: Store;
  readonly #hooks: StoreOwnerHooks;

  constructor(store: Store, hooks: StoreOwnerHooks) {
    this.#store = store;
    this.#hooks = hooks;
  }

  /** Runs one call of worker `from` and answers it through `reply`. */
  handle(from: number, id: number, method: string, args: unknown[], reply: (message: ToWorker) => void): void {
    if (method === 'publishReload') {
      this.#hooks.reloadRequested();
      return reply({ t: 'store', id });
    }
    if (!CALLABLE.has(method)) return reply({ t: 'store', id, error: { name: 'Error', message: `not a store call: ${method}` } });
    if ((method === 'checkLimits' && this.#store.checkLimitsSync) || method === 'checkLimitsSharing') {
      // The request path's call: decided synchronously, answered without a promise's turn.
      try {
        const run = method === 'checkLimits' ? this.#store.checkLimitsSync! : (this.#store as EmbeddedStore).checkLimitsSharing.bind(this.#store);
        return reply({ t: 'store', id, value: run(args[0] as never, args[1] as number) });
      } catch (error) {
        return reply({ t: 'store', id, error: serializeError(error) });
      }
    }
    if (method === 'putCachedResponse') {
      const entry = args[2] as Uint8Array;
      args[2] = Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
    }
    const run = (this.#store as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>)[method]!;
    let result: Promise<unknown>;
    try {
      result = Promise.resolve(run.apply(this.#store, args));
    } catch (error) {
      return reply({ t: 'store', id, error: serializeError(error) });
    }
    result.then(
      (value) => {
        // The others hear of a changed key before the writer answers its client.
        if (KEY_WRITES.has(method)) this.#hooks.keyChanged(from, args[0] as string);
        reply({ t: 'store', id, value });
      },
      (error: unknown) => reply({ t: 'store', id, error: serializeError(error) }),
    );
  }
}
