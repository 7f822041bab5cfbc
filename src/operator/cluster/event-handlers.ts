// How informer events become reconciles: enqueue on add, delete and meaningful updates (update-filter.ts), on
// every event (status included), or for an API kind, itself and — when its sync state changed — its dependents.
import type { Informer } from '../../kube/informer.ts';
import type { KubeObject } from '../../kube/object.ts';
import { meaningful, syncState } from './update-filter.ts';

/** Enqueues on add, on a meaningful update, and on delete. */
export function watch<T extends KubeObject>(informer: Informer<T>, enqueue: (object: T) => void): void {
  informer.addHandlers({
    onAdd: enqueue,
    onUpdate: (old, object) => {
      if (meaningful(old, object)) enqueue(object);
    },
    onDelete: enqueue,
  });
}

/** Enqueues on every event, status changes included (a SuperGraph's composed SDL is status); updates also pass the old object. */
export function watchAll<T extends KubeObject>(informer: Informer<T>, enqueue: (object: T, old?: T) => void): void {
  informer.addHandlers({ onAdd: (object) => enqueue(object), onUpdate: (old, object) => enqueue(object, old), onDelete: (object) => enqueue(object) });
}

/**
 * An API resource: itself on a meaningful update; its dependents (the policies naming it, its context) also when
 * its sync state changed — a policy waiting for the API must hear that it synced.
 */
export function watchApi<T extends KubeObject & { status?: unknown }>(informer: Informer<T>, self: (object: T) => void, dependents: (object: T) => void): void {
  informer.addHandlers({
    onAdd: (object) => {
      self(object);
      dependents(object);
    },
    onUpdate: (old, object) => {
      const changed = meaningful(old, object);
      if (changed) self(object);
      if (changed || syncState(old) !== syncState(object)) dependents(object);
    },
    onDelete: (object) => {
      self(object);
      dependents(object);
    },
  });
}
