// The id of one reconcile (controller-runtime's reconcileID): a UUID the controller draws for each reconcile and
// keeps in an AsyncLocalStorage for the whole run, so everything that run does can name it without threading it
// through every call:
//   - log lines: the logger's mixin (reconcileLogMixin) adds `reconcileID` to every line logged inside a reconcile;
//   - Kubernetes Events: the recorder puts it in the annotation RECONCILE_ID_ANNOTATION;
//   - gateway and dashboard calls: the operator's management clients send it as X-Gw-Reconcile-Id.
// The run also keeps the object it reconciles (`<Kind> <namespace>/<name>`, currentReconciledObject()): the
// dashboard records it as the owner of what the run writes (x-gw-k8s-object).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export const RECONCILE_ID_ANNOTATION = 'gw.io/reconcile-id';

const scope = new AsyncLocalStorage<{ reconcileID: string; object: string | undefined }>();

/**
 * Runs `work` as the reconcile `reconcileID` of `object` (`<Kind> <namespace>/<name>`): currentReconcileId() and
 * currentReconciledObject() answer them in everything `work` awaits.
 */
export function inReconcile<T>(reconcileID: string, work: () => T, object?: string): T {
  return scope.run({ reconcileID, object }, work);
}

/** The id of the reconcile running this code, or undefined outside any reconcile. */
export function currentReconcileId(): string | undefined {
  return scope.getStore()?.reconcileID;
}

/** The object the running reconcile is for, `<Kind> <namespace>/<name>`; undefined outside one or when not given. */
export function currentReconciledObject(): string | undefined {
  return scope.getStore()?.object;
}

/**
 * A pino `mixin`: `{ reconcileID }` on every line logged inside a reconcile, nothing elsewhere, nor on the lines of a
 * child logger already bound to it (the controller's own, which must not carry the key twice).
 */
export const reconcileLogMixin = (_merge: object, _level: number, logger: Logger): object => {
  const reconcileID = scope.getStore()?.reconcileID;
  if (reconcileID === undefined || (logger.bindings() as { reconcileID?: unknown }).reconcileID !== undefined) return {};
  return { reconcileID };
};
