// The messages between the gateway's primary thread (primary.ts) and its worker threads (worker-main.ts). Every
// message is structured-cloned over the worker's port; none carries a function, a class instance or a socket.
//
// The primary owns what must exist once: the embedded store (its journal and directory lock), the change feed's
// version, and the order of reloads. A worker serves clients and the management API and asks the primary for the
// rest: `store` calls (embedded store only; with Redis every worker talks to Redis itself), a `reload` round over
// every worker, a `broadcast` of a cache change every worker must see, a change feed `bump`, the `metrics` of all,
// the basic-auth lock-out's counters (`lockout`), worker 0's uptime verdict (`downHosts`, relayed to the others),
// stream messages for subscribers (`streamMessages`, a batch relayed to every worker).
import type { GatewayConfig } from '../config.ts';
import type { AttemptOutcome } from '../credentials/lockouts.ts';

/** What workerData carries to a worker thread. */
export interface WorkerStart {
  index: number;
  config: GatewayConfig;
  /** The change feed's epoch, the same in every worker: a poller moving between workers sees one feed. */
  epoch: string;
  /** Ask the primary for the store (embedded) instead of opening one. */
  remoteStore: boolean;
  /** The embedded store's shared counters (store/shared-counters.ts): limits decided in the worker itself. */
  sharedCounters?: SharedArrayBuffer;
}

/** One stream message for subscribers: the stream's key and configuration hash, and the message's own bytes. */
export interface StreamRelayed {
  key: string;
  hash: string;
  message: Uint8Array;
}

/** Caches every worker keeps that a management call changes for all of them. */
export type Broadcast = { what: 'certificates' } | { what: 'jwks'; apiId: string | undefined };

export interface SerializedError {
  name: string;
  message: string;
}

export type ToPrimary =
  | { t: 'store'; id: number; method: string; args: unknown[] }
  | { t: 'listening'; ports: { proxy: number; control: number; https: number } }
  | { t: 'reload'; id: number }
  | { t: 'prepared'; round: number; error?: SerializedError }
  | { t: 'applied'; round: number }
  | { t: 'broadcast'; id: number; change: Broadcast }
  | { t: 'done'; id: number }
  | { t: 'bump' }
  | { t: 'metrics'; id: number }
  | { t: 'metricsOf'; id: number; metrics: unknown[] }
  | { t: 'closed' }
  /** The basic-auth lock-out's counters, kept by the primary for every worker (credentials/lockouts.ts). */
  | { t: 'lockout'; id: number; op: 'lockedFor' | 'admit'; user: string; client: string }
  | { t: 'lockoutSettle'; user: string; client: string; outcome: AttemptOutcome }
  /**
   * Stream messages for subscribers, in order, for every worker's, the sender's too (streams/stream-runtime.ts,
   * stream-relay.ts). With an id, the primary answers `done` once it has sent them on: the client publishes among
   * them are answered only after that.
   */
  | { t: 'streamMessages'; id?: number; messages: StreamRelayed[] }
  /** Worker 0 (the one that runs the uptime checks): the hosts they have down now. */
  | { t: 'downHosts'; hosts: string[] };

export type ToWorker =
  | { t: 'store'; id: number; value?: unknown; error?: SerializedError }
  | { t: 'keyChanged'; storageId: string }
  | { t: 'prepare'; round: number }
  | { t: 'commit'; round: number }
  | { t: 'abort'; round: number }
  | { t: 'reloaded'; id: number; error?: SerializedError }
  | { t: 'apply'; id: number; change: Broadcast }
  | { t: 'done'; id: number }
  | { t: 'version'; version: number }
  | { t: 'collectMetrics'; id: number }
  | { t: 'metrics'; id: number; text: string; contentType: string }
  | { t: 'close'; graceMs: number }
  | { t: 'lockout'; id: number; waitMs: number }
  | { t: 'streamMessages'; messages: StreamRelayed[] }
  /** The hosts worker 0's uptime checks have down: load balancing skips them here too. */
  | { t: 'downHosts'; hosts: string[] }
  /** Throw an uncaught exception (GW_DEBUG_WORKER_CRASH, tests of the restart only). */
  | { t: 'crash' };

export function serializeError(error: unknown): SerializedError {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

export function deserializeError(error: SerializedError): Error {
  const result = new Error(error.message);
  result.name = error.name;
  return result;
}
