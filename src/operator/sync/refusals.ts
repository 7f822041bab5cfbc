// What a gateway's answer to a write means for a resource's status (reasonOf: the Ready condition's reason), and
// the writes it refused for good (400/422: GatewayRejected, 409: GatewayConflict): such a write is not sent again
// for the same content of the resource (same uid, same desired payload hash), however often other objects' events or
// its own status writes reconcile it; a TerminalError alone only stops the queue's retries.
import type { MgmtError } from '../../mgmt/client.ts';

export function reasonOf(error: MgmtError): string {
  switch (error.kind) {
    case 'unavailable':
      return 'GatewayUnavailable';
    case 'unauthorized':
      return 'GatewayUnauthorized';
    case 'invalid':
      return 'GatewayRejected';
    case 'conflict':
      return 'GatewayConflict';
    default:
      return 'SyncFailed';
  }
}

/** A write the gateway refused for good, for exactly this content of the resource. */
export interface Refusal {
  uid: string | undefined;
  desiredHash: string;
  reason: string;
  message: string;
}

export class Refusals {
  readonly #byKey = new Map<string, Refusal>();

  /** Records the gateway's answer when it refuses for good; false for any other failure (retried). */
  remember(key: string, uid: string | undefined, desiredHash: string, error: MgmtError): boolean {
    if (error.kind !== 'invalid' && error.kind !== 'conflict') return false;
    this.#byKey.set(key, { uid, desiredHash, reason: reasonOf(error), message: error.message });
    return true;
  }

  /** The refusal of this very content, if the gateway gave one; any other content forgets it (tried again). */
  of(key: string, uid: string | undefined, desiredHash: string): Refusal | undefined {
    const refusal = this.#byKey.get(key);
    if (refusal && refusal.uid === uid && refusal.desiredHash === desiredHash) return refusal;
    this.#byKey.delete(key);
    return undefined;
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }
}
