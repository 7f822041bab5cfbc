// A running gateway: its store, its routing table (loads: routing-loads.ts), its management API and its listening
// sockets (listeners.ts).
//
// Lifecycle: open the store, (licensed mode) take the dashboard's configuration, load (store + files or dashboard),
// listen. `close()` stops accepting, lets requests in flight finish (up to a grace period), ships their analytics
// records (licensed mode), then closes upstream pools and the store.
//
// One of several worker threads (options.worker, workers/primary.ts): the gateway is the same, but a reload is a
// round the primary runs over every worker (each builds its table, then all switch: `prepareLoad`/`applyLoad`),
// certificate and JWKS cache changes reach every worker, the change feed and /metrics are the workers' together,
// and its listeners share their ports with the other workers' (SO_REUSEPORT: the kernel spreads connections).
import { JwksCache } from './credentials/jwks-cache.ts';
import { passwordGuard, VerifiedPasswords } from './credentials/basic-passwords.ts';
import { BCRYPT_COST, BcryptPool } from '../http/bcrypt-pool.ts';
import { PluginPool } from './plugins/plugin-pool.ts';
import { coprocessClient } from './plugins/grpc/coprocess-client.ts';
import type { DispatcherClient } from './plugins/grpc/dispatcher-client.ts';
import { pino, type Logger } from 'pino';
import { ServerCertificates } from './tls/server-certificates.ts';
import { tlsVersion } from './tls/tls-versions.ts';
import type { AdminDeps, LoadReport } from './admin/deps.ts';
import type { GatewayConfig } from './config.ts';
import type { ApiSpec } from './definition/api-spec.ts';
import { EventBus } from './events.ts';
import { DashboardSync } from './dashboard-sync/sync.ts';
import { NodeConfigClient } from './dashboard-sync/node-client.ts';
import { DashboardAnalytics } from './analytics/dashboard-shipping.ts';
import { ClientListeners } from './listeners.ts';
import { collectDefinitions, findApi, findPolicy, type Definitions, type Sourced } from './loader.ts';
import { RoutingLoads, type PreparedLoad } from './routing-loads.ts';
import { GatewayMetrics } from './metrics.ts';
import { ProxyHandler } from './proxy/handler.ts';
import { Tracer } from '../tracing/tracer.ts';
import { StreamRegistry } from './streams/stream-registry.ts';
import { TcpListeners } from './tcp/tcp-listeners.ts';
import type { PipelineServices } from './pipeline/services.ts';
import { TrustedProxies } from './proxy/trusted-proxies.ts';
import { UpstreamPools } from './proxy/upstream-pools.ts';
import { SessionCache } from './session/session-cache.ts';
import { StorageIds } from './session/storage-ids.ts';
import { openStore } from './store/open.ts';
import type { Store, StoredApi, StoredPolicy } from './store/store.ts';
import { UptimeChecker } from './uptime/host-checker.ts';
import type { WorkerRole } from './workers/worker-link.ts';
import { ChangeFeed } from '../http/change-feed.ts';

export interface GatewayOptions {
  log?: Logger;
  /** Clock for limits and expiry; default Date.now. */
  now?: () => number;
  /** The store, already open (a worker thread's); default: opened from the configuration. */
  store?: Store;
  /** Running as one of several worker threads: how to reach the others. */
  worker?: WorkerRole;
}

/** How long the store may take to deliver this gateway's own group reload message back to it. */
const OWN_GROUP_RELOAD_MS = 5000;

export class Gateway implements AdminDeps {
  readonly config: GatewayConfig;
  readonly store: Store;
  readonly log: Logger;
  readonly metrics = new GatewayMetrics();
  readonly sessions: SessionCache;
  readonly proxy: ProxyHandler;
  readonly now: () => number;
  readonly #services: PipelineServices;
  readonly #pools: UpstreamPools;
  /** Worker threads checking basic-auth passwords. */
  readonly #bcrypt: BcryptPool;
  /** Uptime tests of the loaded APIs (uptime/host-checker.ts). */
  readonly #uptime: UptimeChecker;
  readonly #plugins: PluginPool | undefined;
  readonly #coprocess: DispatcherClient | undefined;
  readonly #listeners: ClientListeners;
  readonly #tls: ServerCertificates;
  /** Listeners of the tcp and tls APIs (their own ports). */
  readonly #tcp: TcpListeners;
  readonly #loads: RoutingLoads;
  /** When reloadGroupAndWait published group reloads the store has not delivered back yet. */
  #ownGroupReloads: number[] = [];
  #shuttingDown = false;
  #unsubscribe: (() => void) | undefined;
  #dashboard: DashboardSync | undefined;
  /** Licensed mode with enable_analytics: records shipped to the dashboard. */
  #analytics: DashboardAnalytics | undefined;
  readonly #worker: WorkerRole | undefined;
  /** What /gw/changes serves (the workers' shared feed, or this gateway's own): closed first on shutdown. */
  readonly #changeFeed: ChangeFeed;
  /** Once started, a worker's reloads are the primary's rounds; its first load is its own. */
  #started = false;
  /** OpenTelemetry tracing (opentelemetry.enabled): spans of the proxied requests, exported over OTLP. */
  readonly #tracer: Tracer | undefined;

  /** Management writes are traced with it too (tracing/http-writes.ts). */
  get tracer(): Tracer | undefined {
    return this.#tracer;
  }

  private constructor(config: GatewayConfig, store: Store, options: GatewayOptions) {
    this.config = config;
    this.store = store;
    this.log = options.log ?? pino({ level: config.log_level });
    this.now = options.now ?? Date.now;
    this.#worker = options.worker;
    this.#changeFeed =
      options.worker?.changeFeed ??
      new ChangeFeed({ onTooManyWaiters: () => this.log.warn({ waiting: this.#changeFeed.waiting }, 'change feed: too many watchers') });
    this.sessions = new SessionCache(store, (id) => this.#loads.policy(id), { ttlMs: config.local_session_cache.cached_session_timeout * 1000, now: this.now });
    if (config.enable_analytics && fedByDashboard(config)) {
      const options = config.db_app_conf_options;
      this.#analytics = new DashboardAnalytics(
        config,
        new NodeConfigClient(options.connection_string, options.node_secret, options.org_id),
        this.metrics,
        this.log,
      );
    }
    if (config.opentelemetry.enabled) this.#tracer = this.#startTracing(config);
    this.proxy = new ProxyHandler(this.log, this.metrics, config.hide_generator_header, this.#analytics?.record, this.#tracer);
    this.#pools = new UpstreamPools(config.upstream_hosts);
    this.#bcrypt = new BcryptPool({ size: config.basic_auth_checks.hash_workers, queue: config.basic_auth_checks.hash_queue });
    this.#plugins = config.enable_jsvm
      ? new PluginPool({
          workers: config.jsvm_workers,
          queue: config.jsvm_queue,
          timeoutMs: config.jsvm_timeout * 1000,
          memoryMb: config.jsvm_memory_mb,
          // A call's answer carries at most a body of jsvm_max_body_bytes, base64 or JSON-escaped, and its headers.
          maxMessageChars: 4 * config.jsvm_max_body_bytes + 64 * 1024,
        })
      : undefined;
    this.#coprocess = coprocessClient(config.coprocess_options);
    this.#tls = new ServerCertificates(tlsVersion(config.http_server_options.min_version));
    this.#tcp = new TcpListeners({ config, certificates: this.#tls, reusePort: options.worker !== undefined, log: this.log });
    const events = new EventBus(this.log, this.metrics, config.event_webhooks);
    this.#uptime = new UptimeChecker(config.uptime_tests, events, this.log, undefined, options.worker?.uptime);
    this.#services = {
      config,
      store,
      sessions: this.sessions,
      storageIds: new StorageIds(),
      events,
      uptime: this.#uptime,
      metrics: this.metrics,
      pools: this.#pools,
      trustedProxies: new TrustedProxies(config.trusted_proxies),
      jwks: new JwksCache((url, reason) => this.log.warn({ jwks_url: url, reason }, 'JWKS fetch failed; the previous keys stay in use'), {
        allowedHosts: config.jwks.allowed_hosts,
      }),
      passwords: new VerifiedPasswords(this.#bcrypt, this.now, passwordGuard(config.basic_auth_checks), options.worker?.lockouts),
      certificates: this.#tls,
      streams: new StreamRegistry(this.metrics, this.log, options.worker?.streams),
      log: this.log,
      now: this.now,
      handOff: this.proxy.handOff,
      loop: this.proxy.loop,
      apiOrg: this.proxy.apiOrg,
      ...(this.#plugins ? { plugins: this.#plugins } : {}),
      ...(this.#coprocess ? { coprocess: this.#coprocess } : {}),
      ...(this.#tracer ? { tracer: this.#tracer } : {}),
      ...(this.#analytics
        ? { analytics: { detailedAlways: config.analytics_config.enable_detailed_recording, detailedBodyBytes: config.analytics_config.detailed_body_bytes } }
        : {}),
    };
    this.#loads = new RoutingLoads({
      config,
      store,
      log: this.log,
      metrics: this.metrics,
      services: this.#services,
      proxy: this.proxy,
      sessions: this.sessions,
      uptime: this.#uptime,
      pools: this.#pools,
      tls: this.#tls,
      tcp: this.#tcp,
      remote: () => this.#dashboard?.remote(),
    });
    this.#listeners = new ClientListeners({ config, log: this.log, proxy: this.proxy, tls: this.#tls, deps: this, reusePort: options.worker !== undefined });
  }

  /** The tracer of this gateway (each worker its own); a failed export is logged at most once a minute (never its headers). */
  #startTracing(config: GatewayConfig): Tracer {
    let lastLogged = 0;
    const tracer = new Tracer(config.opentelemetry, {
      resource: { 'tyk.gw.group.id': config.group_id, ...(this.#worker ? { 'gw.worker': this.#worker.index } : {}) },
      onExportError: (error) => {
        if (Date.now() - lastLogged < 60_000) return;
        lastLogged = Date.now();
        this.log.warn({ endpoint: config.opentelemetry.endpoint, err: error.message }, 'OpenTelemetry export failed; its spans are dropped');
      },
    });
    this.metrics.watchTracing(() => tracer.counts);
    return tracer;
  }

  /** Opens the store, loads what there is to serve, and listens. */
  static async start(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
    const store = options.store ?? (await openStore(config));
    const gateway = new Gateway(config, store, options);
    try {
      if (fedByDashboard(config)) {
        gateway.#dashboard = new DashboardSync(config, store, gateway.sessions, gateway.log, () => gateway.reload());
        await gateway.#dashboard.start();
      }
      await gateway.#loads.reload();
      // Workers: the first one follows the group's reloads for all (each reload is a round over every worker).
      if (!options.worker || options.worker.index === 0)
        gateway.#unsubscribe = await store.onReload(config.group_id, (missed) => {
          // A request that may have been missed is never taken for this gateway's own: another gateway's may be lost.
          if (!missed && gateway.#skipOwnGroupReload()) return; // reloadGroupAndWait reloaded this gateway itself
          gateway.reload().catch((error: unknown) => gateway.log.error({ err: String(error) }, 'group reload failed'));
        });
      await gateway.#listeners.listen();
      gateway.#started = true;
    } catch (error) {
      await gateway.close();
      throw error;
    }
    return gateway;
  }

  /** Ports actually bound: `proxy` and `control` (the same when control_api_port is 0), `https` (0 when none). */
  get ports(): { proxy: number; control: number; https: number } {
    return this.#listeners.ports;
  }

  definitions(): Promise<Definitions> {
    return collectDefinitions(this.store, this.config, this.#dashboard?.remote());
  }

  findApi(id: string): Promise<Sourced<StoredApi> | undefined> {
    return findApi(this.store, this.config, this.#dashboard?.remote(), id);
  }

  findPolicy(id: string): Promise<Sourced<StoredPolicy> | undefined> {
    return findPolicy(this.store, this.config, this.#dashboard?.remote(), id);
  }

  loadedSpec(apiId: string): ApiSpec | undefined {
    for (const candidate of this.proxy.table.routes()) if (candidate.spec.id === apiId) return candidate.spec;
    return undefined;
  }

  status(): { ready: boolean; shuttingDown: boolean; lastLoad: LoadReport | undefined } {
    const lastLoad = this.#loads.lastLoad;
    return { ready: lastLoad !== undefined, shuttingDown: this.#shuttingDown, lastLoad };
  }

  hashPassword(plain: string): Promise<string> {
    return this.#bcrypt.hash(plain, BCRYPT_COST);
  }

  get changeFeed(): ChangeFeed {
    return this.#changeFeed;
  }

  async flushJwks(apiId: string | undefined): Promise<void> {
    this.flushJwksHere(apiId);
    await this.#worker?.broadcast({ what: 'jwks', apiId });
  }

  /** This worker's part of flushJwks. */
  flushJwksHere(apiId: string | undefined): void {
    if (apiId === undefined) return this.#services.jwks.clear();
    const source = this.loadedSpec(apiId)?.jwt?.source;
    if (source?.kind === 'jwks') this.#services.jwks.forget(source.url);
  }

  async certificatesChanged(): Promise<void> {
    await this.certificatesChangedHere();
    await this.#worker?.broadcast({ what: 'certificates' });
  }

  /** This worker's part of certificatesChanged. */
  async certificatesChangedHere(): Promise<void> {
    this.#loads.rebuildCertificates(await this.store.listCerts());
  }

  /** Gateway-wide metrics in Prometheus text format: every worker's, summed. */
  async metricsText(): Promise<{ text: string; contentType: string }> {
    if (this.#worker) return this.#worker.metrics();
    return { text: await this.metrics.registry.metrics(), contentType: this.metrics.registry.contentType };
  }

  reloadGroup(): Promise<void> {
    return this.store.publishReload(this.config.group_id);
  }

  /**
   * Asks the group to reload and answers this gateway's own report once a load that started after the call serves
   * (the operator then reads its problems). The store delivers the group message back to this gateway too: one such
   * message within OWN_GROUP_RELOAD_MS is skipped, as this gateway has just reloaded itself. Skipping another
   * gateway's message instead is harmless: the own one, arriving after it, reloads.
   */
  async reloadGroupAndWait(): Promise<LoadReport> {
    // Workers on the embedded store: the group is this gateway alone, and reload() already reloads every worker.
    if (this.#worker && this.store.kind === 'embedded') return this.reload();
    const local = this.reload();
    this.#ownGroupReloads.push(Date.now());
    try {
      await this.reloadGroup();
    } catch (error) {
      this.#ownGroupReloads.pop();
      local.catch(() => undefined);
      throw error;
    }
    return local;
  }

  #skipOwnGroupReload(): boolean {
    const now = Date.now();
    while (this.#ownGroupReloads.length > 0 && now - this.#ownGroupReloads[0]! > OWN_GROUP_RELOAD_MS) this.#ownGroupReloads.shift();
    return this.#ownGroupReloads.shift() !== undefined;
  }

  reload(): Promise<LoadReport> {
    if (this.#worker && this.#started) return this.#worker.reloadAll().then(() => this.#loads.lastLoad!);
    return this.#loads.reload();
  }

  /** Builds the next routing table without serving it yet (a worker's part of a reload round). */
  prepareLoad(): Promise<PreparedLoad> {
    return this.#loads.prepare();
  }

  /** Serves a table prepareLoad built (the round's commit). */
  applyLoad(loaded: PreparedLoad): Promise<LoadReport> {
    return this.#loads.apply(loaded);
  }

  async close(graceMs = 10_000): Promise<void> {
    this.#shuttingDown = true;
    // Long polls of /gw/changes (the operator's watch) are answered now, not left to hold the listeners open.
    this.#changeFeed.close();
    this.#unsubscribe?.();
    this.#dashboard?.stop();
    // Subscribers are told the gateway is shutting down and disconnected, so they do not hold the listeners open.
    await this.#services.streams.close();
    await this.#uptime.stop();
    await this.#listeners.closeServers(graceMs);
    await this.#tcp.close();
    await this.#listeners.closeAdmin();
    // Requests have finished: their records are in the buffer; ship them before going.
    await this.#analytics?.shipper.close(this.config.analytics_config.shutdown_flush_ms);
    await this.#tracer?.shutdown(this.config.opentelemetry.connection_timeout * 1000);
    await this.#pools.close();
    await this.#bcrypt.close();
    await this.#plugins?.close();
    this.#coprocess?.close();
    await this.store.close();
  }
}

/** Licensed mode: the dashboard feeds APIs and keys, or policies. */
function fedByDashboard(config: GatewayConfig): boolean {
  return config.use_db_app_configs || config.policies.policy_source === 'service';
}
