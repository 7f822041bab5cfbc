// When a synced resource being deleted may let go of its finalizer without deleting anything on its gateway or
// dashboard:
//   never written      no gateway ever acknowledged a write of it (status.latestGwSpecHash is set only from an
//                      acknowledged write or a copy found on the gateway, and this process keeps what it wrote
//                      before its status is read back): nothing to delete, the finalizer goes at once, even when
//                      the gateway never answered or the OperatorContext is gone.
//   skip annotation    `gw.gw.io/skip-gateway-deletion: "true"`: the user gives up on the gateway's copy (a gateway
//                      that is gone for good); the finalizer goes and a Warning Event says what was left behind.
// Otherwise deletion waits for the gateway, with Ready=False DeletionPending saying what it waits for and how to
// stop waiting.
import type { KubeObject } from '../../kube/object.ts';

export const SKIP_GATEWAY_DELETION_ANNOTATION = 'gw.gw.io/skip-gateway-deletion';

/** Whether the user asked to release the resource without deleting its gateway copy. */
export function skipsGatewayDeletion(object: KubeObject): boolean {
  return object.metadata.annotations?.[SKIP_GATEWAY_DELETION_ANNOTATION] === 'true';
}

/** Whether a gateway ever acknowledged a write of the resource, as its status records it. */
export function wasEverWritten(status: { latestGwSpecHash?: string | undefined } | undefined): boolean {
  return status?.latestGwSpecHash !== undefined;
}

/** The DeletionPending message: what the deletion waits for, and the way out. */
export function deletionPendingMessage(what: string, id: string, where: string, error: string): string {
  return `deletion waits for ${where} to delete ${what} ${id} (a write of it was acknowledged there): ${error}; to release it without deleting it there, annotate ${SKIP_GATEWAY_DELETION_ANNOTATION}=true`;
}
