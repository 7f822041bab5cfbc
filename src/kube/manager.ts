// Runs informers and controllers together: informers are shared (one per resource and namespace set, however
// many controllers read them), controllers start only once every informer has listed once, and a stop (SIGTERM)
// lets reconciles in flight finish before run() returns.
import type { Logger } from 'pino';
import type { KubeClient } from './client.ts';
import type { Controller } from './controller.ts';
import { Informer, type InformerOptions } from './informer.ts';
import type { KubeObject } from './object.ts';
import type { ResourceType } from './resource.ts';

export interface ManagerOptions {
  log: Logger;
  /** How long informers may take to list before start fails. Default 120 s. */
  cacheSyncTimeoutMs?: number;
}

export class Manager {
  readonly client: KubeClient;
  readonly #log: Logger;
  readonly #informers = new Map<string, Informer<KubeObject>>();
  readonly #controllers: Controller[] = [];
  readonly #cacheSyncTimeoutMs: number;
  #started = false;
  #synced = false;

  constructor(client: KubeClient, options: ManagerOptions) {
    this.client = client;
    this.#log = options.log;
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

  /** True once every informer has listed (readiness). */
  get synced(): boolean {
    return this.#synced;
  }

  /** Runs until the signal aborts; then drains the controllers and returns. */
  async run(signal: AbortSignal): Promise<void> {
    this.#started = true;
    const informersDone = Promise.all([...this.#informers.values()].map((informer) => informer.run(signal)));
    const timeout = new Promise<never>((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`informers did not sync within ${this.#cacheSyncTimeoutMs} ms`)), this.#cacheSyncTimeoutMs);
      timer.unref();
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    });
    await Promise.race([Promise.all([...this.#informers.values()].map((informer) => informer.synced())), timeout]);
    this.#synced = true;
    this.#log.info({ informers: this.#informers.size, controllers: this.#controllers.length }, 'caches synced: starting controllers');
    await Promise.all(this.#controllers.map((controller) => controller.run(signal)));
    await informersDone;
  }
}
