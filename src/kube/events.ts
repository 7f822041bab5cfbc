// Kubernetes Events (core/v1) about objects, as `kubectl describe` shows them. The same event (object, type,
// reason, message) repeated within 10 minutes bumps the count of the Event already written instead of creating
// another (client-go's recorder does the same). Recording never blocks or fails the caller: Events are
// best-effort, written in the background, and failures are logged. The recently written Events are an lru-cache of
// at most 10 000 (least recently used first out) whose TTL is the dedupe window, each bump restarting it. An Event
// recorded inside a reconcile carries its reconcileID in the annotation gw.io/reconcile-id (a repeat takes the id of
// the latest reconcile that saw it), so `kubectl get events -o yaml` leads to that reconcile's log lines.
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { currentReconcileId, RECONCILE_ID_ANNOTATION } from './reconcile-id.ts';
import type { KubeClient } from './client.ts';
import type { KubeObject } from './object.ts';
import { CoreResources } from './resource.ts';

export type EventType = 'Normal' | 'Warning';

interface Recorded {
  name: string;
  count: number;
}

const DEDUPE_WINDOW_MS = 10 * 60_000;

export class EventRecorder {
  readonly #client: KubeClient;
  readonly #component: string;
  readonly #log: Logger;
  readonly #recent = new LRUCache<string, Recorded>({ max: 10_000, ttl: DEDUPE_WINDOW_MS });

  constructor(client: KubeClient, component: string, log: Logger) {
    this.#client = client;
    this.#component = component;
    this.#log = log;
  }

  record(object: KubeObject, type: EventType, reason: string, message: string): void {
    void this.#write(object, type, reason, message.slice(0, 1024), currentReconcileId()).catch((error: unknown) => {
      this.#log.warn({ object: object.metadata.name, reason, err: (error as Error).message }, 'could not record a Kubernetes Event');
    });
  }

  async #write(object: KubeObject, type: EventType, reason: string, message: string, reconcileID: string | undefined): Promise<void> {
    const annotations = reconcileID === undefined ? undefined : { [RECONCILE_ID_ANNOTATION]: reconcileID };
    const { namespace = 'default', name, uid } = object.metadata;
    const key = `${uid ?? `${namespace}/${name}`}\u0000${type}\u0000${reason}\u0000${message}`;
    const now = new Date();
    const previous = this.#recent.get(key);
    if (previous) {
      previous.count++;
      this.#recent.set(key, previous); // restarts its window
      await this.#client.mergePatch(CoreResources.event, namespace, previous.name, {
        count: previous.count,
        lastTimestamp: now.toISOString(),
        ...(annotations ? { metadata: { annotations } } : {}),
      });
      return;
    }
    const created = await this.#client.create(CoreResources.event, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: '', generateName: `${name}.`, namespace, ...(annotations ? { annotations } : {}) },
      involvedObject: { apiVersion: object.apiVersion, kind: object.kind, name, namespace, uid, resourceVersion: object.metadata.resourceVersion },
      reason,
      message,
      type,
      source: { component: this.#component },
      reportingComponent: this.#component,
      firstTimestamp: now.toISOString(),
      lastTimestamp: now.toISOString(),
      count: 1,
    } as KubeObject);
    this.#recent.set(key, { name: created.metadata.name, count: 1 });
  }
}
