// The running streams of the whole gateway, kept across reloads: a load acquires the runtime of every stream it
// compiles (the running one when its configuration hash is unchanged, so its subscribers stay connected; a new one
// otherwise), and once the new routing table is in use, `retainAcquired` stops every runtime the load did not
// acquire (their subscribers are told `stream_removed`). Never connects anything itself: runtimes do.
// On several worker threads (`sharing`), broker inputs are consumed by one worker and every message bound for
// subscribers reaches every worker's (a queue group would otherwise hand each worker only its share).
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../metrics.ts';
import type { StreamSpec } from '../definition/api-spec.ts';
import { StreamRuntime, type StreamSharing } from './stream-runtime.ts';

export class StreamRegistry {
  readonly #running = new Map<string, StreamRuntime>();
  #acquired = new Set<StreamRuntime>();
  readonly #metrics: GatewayMetrics;
  readonly #log: Logger;
  readonly #sharing: StreamSharing | undefined;

  constructor(metrics: GatewayMetrics, log: Logger, sharing?: StreamSharing) {
    this.#metrics = metrics;
    this.#log = log;
    this.#sharing = sharing;
    // A message for subscribers (from any worker, this one's too): to this worker's subscribers of the same configuration.
    sharing?.follow((key, hash, message) => {
      const runtime = this.#running.get(key);
      if (runtime?.definition.hash === hash) runtime.subscribers?.broadcast(message);
    });
  }

  /** The runtime for this stream: the running one when its configuration is unchanged, else a new one. */
  acquire(definition: StreamSpec): StreamRuntime {
    const current = this.#running.get(definition.key);
    const pending = [...this.#acquired].find((r) => r.definition.key === definition.key && r.definition.hash === definition.hash);
    const runtime =
      pending ?? (current?.definition.hash === definition.hash ? current : new StreamRuntime(definition, this.#metrics, this.#log, this.#sharing));
    this.#acquired.add(runtime);
    return runtime;
  }

  /**
   * After a load is in use: the acquired runtimes are the running ones; every other runtime stops, in the
   * background (a reload never waits on a broker connection closing).
   */
  retainAcquired(): void {
    const stopping = [...this.#running.values()].filter((r) => !this.#acquired.has(r));
    this.#running.clear();
    for (const runtime of this.#acquired) this.#running.set(runtime.definition.key, runtime);
    this.#acquired = new Set();
    for (const runtime of stopping) {
      runtime
        .stop('stream_removed')
        .catch((error: unknown) => this.#log.warn({ stream: runtime.definition.key, err: (error as Error).message }, 'stream did not stop cleanly'));
    }
  }

  get size(): number {
    return this.#running.size;
  }

  async close(): Promise<void> {
    const all = [...this.#running.values(), ...this.#acquired];
    this.#running.clear();
    this.#acquired = new Set();
    await Promise.all(all.map((r) => r.stop('shutting_down')));
  }
}
