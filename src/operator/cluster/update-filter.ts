// Which informer updates are worth a reconcile. The operator's own status writes (and its finalizer added to a live
// object right before it syncs) come back as updates; enqueueing on them would make every write wake its own
// resource, and every sync wake whatever waits on it. Pure: decides, never enqueues.
import type { KubeObject } from '../../kube/object.ts';

/**
 * Whether an update can change what the resource's own reconcile does: not the operator's status writes, and not
 * a finalizer added to a live object (the operator's own, right before it syncs); finalizer changes matter only
 * while the object is being deleted.
 */
export function meaningful(old: KubeObject, object: KubeObject): boolean {
  const a = old.metadata;
  const b = object.metadata;
  if (a.generation !== b.generation || a.deletionTimestamp !== b.deletionTimestamp) return true;
  return b.deletionTimestamp !== undefined && (a.finalizers ?? []).join() !== (b.finalizers ?? []).join();
}

/** What a resource waiting on an API needs to hear about: its id on the gateway and its last sync's outcome. */
export function syncState(object: { status?: unknown }): string {
  const status = object.status as { api_id?: string; id?: string; latestTransaction?: { status?: string } } | undefined;
  return `${status?.api_id ?? status?.id ?? ''}|${status?.latestTransaction?.status ?? ''}`;
}

/** syncState plus the generation the sync covered: whether the API's current spec is on the gateway. */
export function syncedGeneration(object: { status?: unknown }): string {
  return `${syncState(object)}|${(object.status as { observedGeneration?: number } | undefined)?.observedGeneration ?? ''}`;
}
