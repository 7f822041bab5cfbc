// The drift scan (docs/architecture.md §4): every period, each gateway is listed once (three requests: APIs, OAS APIs,
// policies) and every synced resource whose gateway copy differs from what was last written — or is gone — is
// queued, so a change made by hand on the gateway is restored within one period. Tyk notices only on its
// ~10 h cache resync. Resources whose last attempt found their gateway unreachable are queued too once it lists
// again, so an outage ends within one period for them, whatever their retry backoff had grown to. The change watch
// (change-watch.ts) runs the same scan for one gateway as soon as its change feed moves: the period is the fallback.
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Controller } from '../../kube/controller.ts';
import { objectKey } from '../../kube/object.ts';
import type { ContextResolver } from './context.ts';
import type { GatewayHandle } from './gateways.ts';
import type { OperatorMetrics } from '../process/metrics.ts';
import type { SyncKind, SyncedObject } from './sync.ts';

export interface DriftTarget {
  kind: SyncKind<SyncedObject>;
  controller: Controller;
  /** What this process last wrote for a key, newer than the cached status right after a write. */
  writtenGatewayHash?: (key: string, uid: string | undefined) => string | undefined;
}

export class DriftScanner {
  readonly #targets: DriftTarget[];
  readonly #contexts: ContextResolver;
  readonly #metrics: OperatorMetrics;
  readonly #log: Logger;
  readonly #periodMs: number;
  /** Scans finished (tests). */
  scans = 0;

  constructor(targets: DriftTarget[], contexts: ContextResolver, metrics: OperatorMetrics, log: Logger, periodMs: number) {
    this.#targets = targets;
    this.#contexts = contexts;
    this.#metrics = metrics;
    this.#log = log;
    this.#periodMs = periodMs;
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await sleep(this.#periodMs, undefined, { signal });
      } catch {
        return;
      }
      await this.scan().catch((error: unknown) => this.#log.warn({ err: (error as Error).message }, 'drift scan failed'));
    }
  }

  /** One scan (of every gateway, or of `only`); returns how many resources it queued. */
  async scan(only?: GatewayHandle): Promise<number> {
    const candidates: { target: DriftTarget; object: SyncedObject; gateway: GatewayHandle; id: string }[] = [];
    for (const target of this.#targets) {
      for (const object of target.kind.cache.list()) {
        if (object.metadata.deletionTimestamp || !(object.status?.latestGwSpecHash || waitingForGateway(object))) continue;
        try {
          const { gateway } = await this.#contexts.resolve(object);
          if (only && gateway !== only) continue;
          candidates.push({ target, object, gateway, id: target.kind.idOf(object, { context: undefined, gateway }) });
        } catch {
          // an unresolvable context is reported by the resource's own reconcile
        }
      }
    }
    const gateways = [...new Set(candidates.map((c) => c.gateway))];
    const reachable = new Set<GatewayHandle>();
    await Promise.all(
      gateways.map((gateway) =>
        gateway.mirror.refresh().then(
          () => reachable.add(gateway),
          (error: unknown) => this.#log.warn({ gateway: gateway.env.url, err: (error as Error).message }, 'drift scan: gateway not listed'),
        ),
      ),
    );
    let queued = 0;
    for (const { target, object, gateway, id } of candidates) {
      if (!reachable.has(gateway)) continue;
      if (waitingForGateway(object)) {
        target.controller.enqueue(objectKey(object));
        queued++;
        continue;
      }
      const onGateway = gateway.mirror.hash(target.kind.mirrorKind, id);
      if (onGateway === object.status!.latestGwSpecHash) continue;
      if (onGateway !== undefined && onGateway === target.writtenGatewayHash?.(objectKey(object), object.metadata.uid)) continue;
      this.#metrics.driftCorrections.labels(target.kind.kind).inc();
      target.controller.enqueue(objectKey(object));
      queued++;
    }
    this.scans++;
    if (queued > 0) this.#log.info({ queued }, 'drift scan: restoring resources changed or missing on their gateway');
    return queued;
  }
}

/** The last attempt failed because the gateway could not be reached. */
function waitingForGateway(object: SyncedObject): boolean {
  const ready = object.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'False' && ready.reason === 'GatewayUnavailable';
}
