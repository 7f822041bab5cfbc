// Writes to the cluster on behalf of reconciles: status through server-side apply on the status subresource
// (skipped when nothing in it changed, so a reconcile that finds everything in sync writes nothing at all),
// finalizers through merge patches carrying the resourceVersion (a stale write gets 409 and is retried on the
// fresh object, never clobbering someone else's finalizer), and Kubernetes Events. Writes carry the reconcile's
// AbortSignal: an aborted reconcile writes nothing more.
import type { KubeClient } from '../../kube/client.ts';
import type { EventRecorder, EventType } from '../../kube/events.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';

export class ResourceWriter {
  readonly #kube: KubeClient;
  readonly #recorder: EventRecorder;
  /** Status writes actually sent (metrics, tests). */
  statusWrites = 0;

  constructor(kube: KubeClient, recorder: EventRecorder) {
    this.#kube = kube;
    this.#recorder = recorder;
  }

  /** Applies the status when it differs from the object's; returns whether a write happened. */
  async writeStatus(resource: ResourceType, object: KubeObject & { status?: unknown }, status: object, signal?: AbortSignal): Promise<boolean> {
    if (canonicalJson(object.status ?? {}) === canonicalJson(status)) return false;
    await this.#kube.apply(resource, { metadata: { name: object.metadata.name, namespace: object.metadata.namespace }, status } as KubeObject, 'status', {
      signal,
    });
    this.statusWrites++;
    return true;
  }

  hasFinalizer(object: KubeObject, finalizer: string): boolean {
    return object.metadata.finalizers?.includes(finalizer) ?? false;
  }

  async addFinalizer(resource: ResourceType, object: KubeObject, finalizer: string, signal?: AbortSignal): Promise<void> {
    if (this.hasFinalizer(object, finalizer)) return;
    await this.#kube.mergePatch(
      resource,
      object.metadata.namespace,
      object.metadata.name,
      {
        metadata: { finalizers: [...(object.metadata.finalizers ?? []), finalizer], resourceVersion: object.metadata.resourceVersion },
      },
      undefined,
      { signal },
    );
  }

  async removeFinalizer(resource: ResourceType, object: KubeObject, finalizer: string, signal?: AbortSignal): Promise<void> {
    if (!this.hasFinalizer(object, finalizer)) return;
    await this.#kube.mergePatch(
      resource,
      object.metadata.namespace,
      object.metadata.name,
      {
        metadata: { finalizers: object.metadata.finalizers!.filter((f) => f !== finalizer), resourceVersion: object.metadata.resourceVersion },
      },
      undefined,
      { signal },
    );
  }

  event(object: KubeObject, type: EventType, reason: string, message: string): void {
    this.#recorder.record(object, type, reason, message);
  }
}
