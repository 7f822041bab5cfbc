// An informer: keeps a Cache of one resource in sync with the apiserver and tells handlers what changed.
//
// Per watched namespace (or all namespaces) it runs client-go's reflector loop:
//   list (paged) -> replace the cache (deletions for objects gone meanwhile) -> watch from the list's
//   resourceVersion with bookmarks and a server timeout of 5-10 minutes -> re-watch from the last seen
//   resourceVersion when the stream ends; a stream that ends without an error but at once (under 1 s, no event:
//   client-go's "very short watch") counts as a failure, so a server or proxy closing every watch at once is not
//   hammered. A 410 Gone (too old a resourceVersion, as an HTTP status or an ERROR
//   event) lists again. Any other failure waits a jittered backoff (800 ms to 30 s) and retries; the loop never
//   gives up. A watchdog ends a watch that has been silent longer than bookmarks allow (a half-open connection)
//   so it is started again.
// Handlers run synchronously, in event order; one that throws is logged and does not stop the informer. Update
// handlers get the old and the new object. Handlers should only enqueue keys: the work happens in controllers.
import type { Logger } from 'pino';
import { Backoff } from './backoff.ts';
import { Cache } from './cache.ts';
import type { KubeClient, WatchEvent } from './client.ts';
import { KubeApiError } from './errors.ts';
import { objectKey, type KubeObject } from './object.ts';
import { apiVersionOf, resourcePath, type ResourceType } from './resource.ts';

export interface InformerHandlers<T> {
  onAdd?(object: T): void;
  onUpdate?(old: T, object: T): void;
  onDelete?(object: T): void;
}

export interface InformerOptions {
  /** Namespaces to watch; undefined or empty: all namespaces. */
  namespaces?: string[];
  labelSelector?: string;
  fieldSelector?: string;
  /** A watch silent this long is restarted. Default 3 minutes (the apiserver sends bookmarks about every minute). */
  watchdogMs?: number;
  log?: Logger;
  /**
   * Keep metadata.managedFields and kubectl's last-applied-configuration annotation in cached objects. Default
   * false: they are dropped (as controller-runtime's TransformStripManagedFields does); together they are usually
   * larger than the object itself, and a cache of a thousand resources would be mostly them.
   */
  keepManagedFields?: boolean;
  /** The backoff between failed attempts (tests observe it). Default: new Backoff() (800 ms to 30 s). */
  backoff?: () => Backoff;
}

/** A watch that ends this soon with no event was refused in effect, not ended by the server's timeout. */
const SHORT_WATCH_MS = 1000;

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function withoutBookkeeping<T extends KubeObject>(object: T): T {
  const metadata = { ...object.metadata } as T['metadata'] & { managedFields?: unknown };
  delete metadata.managedFields;
  if (metadata.annotations?.[LAST_APPLIED] !== undefined) {
    const { [LAST_APPLIED]: _dropped, ...annotations } = metadata.annotations;
    metadata.annotations = annotations;
  }
  return { ...object, metadata };
}

export class Informer<T extends KubeObject> {
  readonly cache = new Cache<T>();
  readonly resource: ResourceType;
  readonly #client: KubeClient;
  readonly #options: InformerOptions;
  readonly #handlers: InformerHandlers<T>[] = [];
  readonly #synced = new Set<string>();
  #resolveSynced: (() => void) | undefined;
  readonly #syncedPromise: Promise<void>;
  /** Watch streams started (metrics, tests). */
  watchesStarted = 0;
  /** Lists done (the first one, and one after every 410). */
  listsDone = 0;

  constructor(client: KubeClient, resource: ResourceType, options: InformerOptions = {}) {
    this.#client = client;
    this.resource = resource;
    this.#options = options;
    this.#syncedPromise = new Promise((resolve) => (this.#resolveSynced = resolve));
  }

  addHandlers(handlers: InformerHandlers<T>): void {
    this.#handlers.push(handlers);
  }

  /** Resolves once every namespace has been listed once. */
  synced(): Promise<void> {
    return this.#syncedPromise;
  }

  get hasSynced(): boolean {
    return this.#synced.size === this.#scopes().length;
  }

  /** Runs until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    await Promise.all(this.#scopes().map((namespace) => this.#loop(namespace || undefined, signal)));
  }

  #scopes(): string[] {
    const namespaces = this.#options.namespaces?.filter(Boolean) ?? [];
    return namespaces.length > 0 && this.resource.namespaced ? namespaces : [''];
  }

  async #loop(namespace: string | undefined, signal: AbortSignal): Promise<void> {
    const backoff = this.#options.backoff?.() ?? new Backoff();
    let resourceVersion: string | undefined;
    const selectors = { labelSelector: this.#options.labelSelector, fieldSelector: this.#options.fieldSelector };
    while (!signal.aborted) {
      try {
        if (resourceVersion === undefined) {
          const listed = await this.#client.list<T>(this.resource, namespace, selectors);
          this.listsDone++;
          this.#replace(
            namespace,
            listed.items.map((item) => this.#typed(item)),
          );
          resourceVersion = listed.resourceVersion;
          this.#markSynced(namespace ?? '');
        }
        const started = Date.now();
        const watched = await this.#watch(namespace, resourceVersion, signal);
        resourceVersion = watched.resourceVersion;
        if (watched.events === 0 && !watched.restarted && !signal.aborted && Date.now() - started < SHORT_WATCH_MS) {
          throw new Error(`very short watch: ended after ${Date.now() - started} ms without an event`);
        }
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof KubeApiError && error.gone) {
          this.#options.log?.info({ resource: this.resource.plural, namespace }, 'watch resourceVersion expired (410): listing again');
          resourceVersion = undefined;
          continue;
        }
        this.#options.log?.warn({ resource: this.resource.plural, namespace, err: (error as Error).message }, 'list/watch failed: retrying after backoff');
        if (!(await backoff.wait(signal))) return;
      }
    }
  }

  /** One watch stream; returns the last resourceVersion seen when the stream ends, how many events it carried and
   * whether the watchdog ended it. */
  async #watch(namespace: string | undefined, from: string, signal: AbortSignal): Promise<{ resourceVersion: string; events: number; restarted: boolean }> {
    let resourceVersion = from;
    let events = 0;
    let restarted = false;
    const watch = new AbortController();
    const stop = (): void => watch.abort();
    signal.addEventListener('abort', stop, { once: true });
    const watchdogMs = this.#options.watchdogMs ?? 180_000;
    let watchdog = setTimeout(stop, watchdogMs);
    this.watchesStarted++;
    try {
      const stream = this.#client.watch<T>(
        resourcePath(this.resource, namespace),
        {
          resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: 300 + Math.floor(Math.random() * 300),
          labelSelector: this.#options.labelSelector,
          fieldSelector: this.#options.fieldSelector,
        },
        watch.signal,
      );
      for await (const event of stream) {
        events++;
        clearTimeout(watchdog);
        watchdog = setTimeout(stop, watchdogMs);
        if (event.type === 'ERROR') {
          const status = event.object as unknown as { code?: number; reason?: string; message?: string };
          throw new KubeApiError(status.code ?? 500, status.reason ?? '', status.message ?? 'watch error');
        }
        resourceVersion = event.object.metadata.resourceVersion ?? resourceVersion;
        if (event.type !== 'BOOKMARK') this.#apply(event);
      }
    } catch (error) {
      // A watchdog abort ends this stream only: the loop watches again from where it was.
      if (!(watch.signal.aborted && !signal.aborted)) throw error;
      restarted = true;
      this.#options.log?.warn({ resource: this.resource.plural, namespace }, `watch silent for ${watchdogMs} ms: restarting it`);
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener('abort', stop);
    }
    return { resourceVersion, events, restarted };
  }

  #apply(event: WatchEvent<T>): void {
    const object = this.#typed(event.object);
    if (event.type === 'DELETED') {
      const old = this.cache.remove(objectKey(object));
      this.#notify((h) => h.onDelete?.(old ?? object));
      return;
    }
    const old = this.cache.upsert(object);
    if (old) this.#notify((h) => h.onUpdate?.(old, object));
    else this.#notify((h) => h.onAdd?.(object));
  }

  /** After a list: the cache holds exactly these objects of this namespace scope. */
  #replace(namespace: string | undefined, items: T[]): void {
    const listed = new Set(items.map((item) => objectKey(item)));
    for (const key of this.cache.keys()) {
      const object = this.cache.get(key)!;
      const inScope = namespace === undefined || object.metadata.namespace === namespace;
      if (inScope && !listed.has(key)) {
        this.cache.remove(key);
        this.#notify((h) => h.onDelete?.(object));
      }
    }
    for (const item of items) {
      const old = this.cache.upsert(item);
      if (!old) this.#notify((h) => h.onAdd?.(item));
      else if (old.metadata.resourceVersion !== item.metadata.resourceVersion) this.#notify((h) => h.onUpdate?.(old, item));
    }
  }

  /** What the cache keeps: apiVersion and kind filled in (lists omit them), the bulky bookkeeping gone. */
  #typed(object: T): T {
    const kept = this.#options.keepManagedFields ? object : withoutBookkeeping(object);
    return { ...kept, apiVersion: object.apiVersion ?? apiVersionOf(this.resource), kind: object.kind ?? this.resource.kind };
  }

  #notify(call: (handlers: InformerHandlers<T>) => void): void {
    for (const handlers of this.#handlers) {
      try {
        call(handlers);
      } catch (error) {
        this.#options.log?.error({ resource: this.resource.plural, err: (error as Error).stack }, 'informer handler failed');
      }
    }
  }

  #markSynced(scope: string): void {
    this.#synced.add(scope);
    if (this.hasSynced) this.#resolveSynced?.();
  }
}
