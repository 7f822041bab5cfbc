// What the management API needs from the running gateway, as one interface (gateway.ts implements it), so route
// modules depend on capabilities rather than on the gateway's internals.
import type { Tracer } from '../../tracing/tracer.ts';
import type { Logger } from 'pino';
import type { ChangeFeed } from '../../http/change-feed.ts';
import type { GatewayConfig } from '../config.ts';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { Definitions, Sourced } from '../loader.ts';
import type { LoadProblem } from '../load-problem.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { SessionCache } from '../session/session-cache.ts';
import type { Store, StoredApi, StoredPolicy } from '../store/store.ts';

export interface LoadReport {
  at: string;
  apis: number;
  policies: number;
  problems: LoadProblem[];
}

export interface AdminDeps {
  config: GatewayConfig;
  store: Store;
  sessions: SessionCache;
  metrics: GatewayMetrics;
  log: Logger;
  /** What would be served now (store and files), for reads and for validating writes. */
  definitions(): Promise<Definitions>;
  /** The one API definitions() would answer for an id, without listing the store (per-request reads and writes). */
  findApi(id: string): Promise<Sourced<StoredApi> | undefined>;
  /** The one policy definitions() would answer for an id, without listing the store. */
  findPolicy(id: string): Promise<Sourced<StoredPolicy> | undefined>;
  /** The spec of an API as currently loaded. */
  loadedSpec(apiId: string): ApiSpec | undefined;
  /** Reloads and resolves when the new routing table serves. */
  reload(): Promise<LoadReport>;
  /** The certificate store changed (/gw/certs): the TLS listeners and mTLS allow-lists follow at once, no reload. */
  certificatesChanged(): Promise<void>;
  /** Forgets the JWKS keys fetched for one API's URL (undefined: for every URL); the next request refetches. */
  flushJwks(apiId: string | undefined): Promise<void>;
  /** The change feed /gw/changes serves when the gateway's workers share one; default a feed of its own. */
  changeFeed?: ChangeFeed;
  /** Asks every gateway of the group (this one included) to reload. */
  reloadGroup(): Promise<void>;
  /** Asks the group to reload; resolves with this gateway's report once its own reload (started after the call) serves. */
  reloadGroupAndWait(): Promise<LoadReport>;
  /** A basic-auth password's bcrypt hash, computed in the gateway's worker pool; HashingBusyError when its queue is full. */
  hashPassword(plain: string): Promise<string>;
  /** The gateway's metrics in Prometheus text format (every worker's, summed). */
  metricsText(): Promise<{ text: string; contentType: string }>;
  status(): { ready: boolean; shuttingDown: boolean; lastLoad: LoadReport | undefined };
  now(): number;
  /** OpenTelemetry (opentelemetry.enabled): management writes get a span (tracing/http-writes.ts). */
  readonly tracer?: Tracer | undefined;
}
