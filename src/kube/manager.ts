// Runs informers and controllers together: informers are shared (one per resource and namespace set, however
// many controllers read them), controllers start only once every informer has listed once, and a stop (SIGTERM)
// lets reconciles in flight finish before run() returns.
// With leader election, every replica lists and watches (a standby is ready and takes over warm) but controllers
// and the other leader-only runnables start only once this replica holds the Lease. The Lease is released only
// after they have drained, so two replicas never write at once. A lost Lease stops writing AT ONCE: the client is
// fenced (every write refused before it is sent), the reconciles in flight are aborted (halt) rather than drained,
// and run() returns with lostLeadership set (the process then exits non-zero and is restarted clean, as
// controller-runtime does).
import type { Logger } from 'pino';
import type { KubeClient } from './client.ts';
import type { Controller } from './controller.ts';
import { Informer, type InformerOptions } from './informer.ts';
import type { LeaderElector } from './leader.ts';
import type { KubeObject } from './object.ts';
import type { ResourceType } from './resource.ts';

export interface ManagerOptions {
  log: Logger;
  /** How long informers may take to list before start fails. Default 120 s. */
  cacheSyncTimeoutMs?: number;
  /** When set, controllers and leader-only runnables run only while this elector holds the Lease. */
  leaderElection?: LeaderElector;
  /** Told when this replica starts or stops leading (metrics). */
  onLeading?: (leading: boolean) => void;
  /** Called at once when the Lease is lost, before anything drains: stop writes made outside reconciles. */
  onLostLeadership?: () => void;
  /** Awaited once leadership is held (or caches synced, without election), before any controller starts. */
  beforeControllers?: () => Promise<void>;
}

/** Work that must run on the leader only, until its signal aborts. */
export type LeaderRunnable = (signal: AbortSignal) => Promise<void>;

export class Manager {
  readonly client: KubeClient;
  readonly #log: Logger;
  readonly #informers = new Map<string, Informer<KubeObject>>();
  readonly #controllers: Controller[] = [];
  readonly #runnables: LeaderRunnable[] = [];
  readonly #cacheSyncTimeoutMs: number;
  readonly #options: ManagerOptions;
  #started = false;
  #synced = false;
  #leading = false;
  #lostLeadership = false;

  constructor(client: KubeClient, options: ManagerOptions) {
    this.client = client;
    this.#log = options.log;
    this.#options = options;
    this.#cacheSyncTimeoutMs = options.cacheSyncTimeoutMs ?? 120_000;
  }

  /** The shared informer of a resource (created on first use; only before start). */
  informer<T extends KubeObject>(resource: ResourceType, options: Omit<InformerOptions, 'log'> = {}): Informer<T> {
    const key = `${resource.group}/${resource.version}/${resource.plural}?${(options.namespaces ?? []).join(',')}&${options.labelSelector ?? ''}&${options.fieldSelector ?? ''}`;
    let informer = this.#informers.get(key);
    if (!informer) {
      if (this.#started) throw new Error(`informer for ${resource.plural} requested after start`);
      informer = new Informer<KubeObject>(this.client, resource, { ...options, log: this.#log });
      this.#informers.set(key, informer);
    }
    return informer as unknown as Informer<T>;
  }

  add(controller: Controller): void {
    this.#controllers.push(controller);
  }

  /** Adds work that runs beside the controllers, on the leader only. */
  addLeaderRunnable(runnable: LeaderRunnable): void {
    this.#runnables.push(runnable);
  }

  /** True once every informer has listed (readiness; a standby replica is ready too). */
  get synced(): boolean {
    return this.#synced;
  }

  /** True while controllers run: this replica holds the Lease, or runs without leader election. */
  get leading(): boolean {
    return this.#leading;
  }

  /** True when run() ended because the Lease was lost rather than because the caller stopped it. */
  get lostLeadership(): boolean {
    return this.#lostLeadership;
  }

  /** Runs until the signal aborts; then drains the controllers and returns. */
  async run(signal: AbortSignal): Promise<void> {
    this.#started = true;
    // Everything stops on the caller's signal or on a lost Lease.
    const stop = new AbortController();
    const forward = (): void => stop.abort();
    if (signal.aborted) stop.abort();
    else signal.addEventListener('abort', forward, { once: true });
    try {
      await this.#run(stop);
    } finally {
      signal.removeEventListener('abort', forward);
    }
  }

  async #run(stop: AbortController): Promise<void> {
    const signal = stop.signal;
    const informersDone = Promise.all([...this.#informers.values()].map((informer) => informer.run(signal)));
    const timeout = new Promise<never>((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`informers did not sync within ${this.#cacheSyncTimeoutMs} ms`)), this.#cacheSyncTimeoutMs);
      timer.unref();
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    });
    await Promise.race([Promise.all([...this.#informers.values()].map((informer) => informer.synced())), timeout]);
    this.#synced = true;
    const elector = this.#options.leaderElection;
    if (elector) {
      this.#log.info({ informers: this.#informers.size }, 'caches synced: waiting for leadership');
      if (!(await elector.acquire(signal))) {
        await informersDone;
        return;
      }
    }
    // The Lease is held until the controllers have drained (holdUntil), not merely until the stop signal.
    const holdUntil = new AbortController();
    const halt = new AbortController();
    const holding = elector?.hold(holdUntil.signal, () => {
      this.#lostLeadership = true;
      this.client.refuseWrites('this replica lost its leader Lease');
      halt.abort(new Error('leadership lost'));
      this.#options.onLostLeadership?.();
      stop.abort();
    });
    this.#setLeading(true);
    await this.#options.beforeControllers?.();
    this.#log.info({ informers: this.#informers.size, controllers: this.#controllers.length }, 'caches synced: starting controllers');
    await Promise.all([
      ...this.#controllers.map((controller) => controller.run(signal, { halt: halt.signal })),
      ...this.#runnables.map((runnable) => runnable(signal)),
    ]);
    this.#setLeading(false);
    holdUntil.abort();
    await holding;
    await informersDone;
  }

  #setLeading(leading: boolean): void {
    this.#leading = leading;
    this.#options.onLeading?.(leading);
  }
}
