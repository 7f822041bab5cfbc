// What pipeline steps may use, handed to them when an API is compiled: configuration, the store, the session
// cache, JWKS keys and verified passwords, events and metrics, where upstream calls go, which peers may forward for clients, and the clock (injected
// so tests can move time). Declared here, below proxy/ and middleware/; the gateway builds one set at start.
import type { Tracer } from '../../tracing/tracer.ts';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { GatewayConfig } from '../config.ts';
import type { JwksCache } from '../credentials/jwks-cache.ts';
import type { VerifiedPasswords } from '../credentials/basic-passwords.ts';
import type { PluginPool } from '../plugins/plugin-pool.ts';
import type { DispatcherClient } from '../plugins/grpc/dispatcher-client.ts';
import type { UpstreamTarget } from '../definition/version-spec.ts';
import type { EventBus } from '../events.ts';
import type { LoopState, ProxyContext } from './contract.ts';
import type { LoopUrl } from '../looping/loop-url.ts';
import type { HostHealth } from '../uptime/host-checker.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { SessionCache } from '../session/session-cache.ts';
import type { StorageIds } from '../session/storage-ids.ts';
import type { Store } from '../store/store.ts';
import type { StreamRegistry } from '../streams/stream-registry.ts';

/** The TLS setup of an HTTPS upstream connection (proxy/upstream-tls.ts resolves it, upstream-pools.ts applies it). */
export interface UpstreamTls {
  /** Names this setup among the pools of one origin. */
  id: string;
  /** Upstream mTLS: a PEM with the client certificate (chain) and its private key. */
  clientCertificate?: string;
  /** Pinning: SHA-256 (base64) of SubjectPublicKeyInfo; some certificate of the upstream's chain must carry one. */
  pinnedKeys?: string[];
}

/** The connection pool for an upstream (proxy/upstream-pools.ts). */
export interface UpstreamDispatchers {
  get(target: UpstreamTarget, tls?: UpstreamTls): Dispatcher;
}

/** Whether a peer address is a proxy allowed to extend the X-Forwarded-* chain (proxy/trusted-proxies.ts). */
export interface ForwardingTrust {
  trusts(address: string | undefined): boolean;
}

/** Fingerprints of the stored certificates as of the last reload (tls/server-certificates.ts): mTLS allow-lists. */
export interface CertificateFingerprints {
  fingerprintOf(id: string): string | undefined;
}

export interface PipelineServices {
  config: GatewayConfig;
  store: Store;
  sessions: SessionCache;
  storageIds: StorageIds;
  events: EventBus;
  metrics: GatewayMetrics;
  pools: UpstreamDispatchers;
  trustedProxies: ForwardingTrust;
  /** JWKS keys by URL, shared by every JWT API. */
  jwks: JwksCache;
  /** Recently verified basic-auth passwords. */
  passwords: VerifiedPasswords;
  /** Fingerprints of stored certificates, for client certificate allow-lists. */
  certificates: CertificateFingerprints;
  /** The running streams of APIs with x-gw-streaming, kept across reloads. */
  streams: StreamRegistry;
  log: Logger;
  now(): number;
  /** Which hosts the uptime tests have down (../uptime/host-checker.ts); absent: none are checked. */
  uptime?: HostHealth;
  /** Set when the gateway records analytics (licensed mode, enable_analytics). */
  analytics?: AnalyticsSettings;
  /**
   * Hands a request, whole, to the pipeline of the loaded API with this id (an OAS base API's other version:
   * middleware/routing/version-routing.ts); false when no such API is loaded. Set by the gateway (proxy/handler.ts).
   */
  handOff?: (ctx: ProxyContext, apiId: string) => boolean;
  /**
   * Internal looping: runs the request through the pipeline of the API a tyk:// URL names (../looping/loop-step.ts);
   * false when no loaded API answers to that name. Set by the gateway (proxy/handler.ts).
   */
  loop?: (ctx: ProxyContext, url: LoopUrl, state: LoopState) => boolean;
  /** The organisation of the loaded API with this id; undefined when none is loaded. Set by the gateway (proxy/handler.ts). */
  apiOrg?: (apiId: string) => string | undefined;
  /** Runs JavaScript plugins (plugins/plugin-pool.ts); set when enable_jsvm. */
  plugins?: PluginPool;
  /** Calls the gRPC plugin server (plugins/grpc/dispatcher-client.ts); set when coprocess_options enable it. */
  coprocess?: DispatcherClient;
  /** OpenTelemetry tracing (../../tracing/tracer.ts); set when opentelemetry.enabled. */
  tracer?: Tracer;
}

/** Detailed analytics recording (middleware/recording/detailed-recording.ts). */
export interface AnalyticsSettings {
  /** analytics_config.enable_detailed_recording: every request. */
  detailedAlways: boolean;
  /** analytics_config.detailed_body_bytes: most bytes kept of each body. */
  detailedBodyBytes: number;
}
