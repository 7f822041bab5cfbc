// Loads of the gateway's configuration: building a routing table (prepare) and serving it (apply), and the serial
// order of reloads. Reloads are serialised — one at a time; requests for a reload while one runs collapse into a
// single follow-up — and each builds a whole new routing table that replaces the old one in one assignment. A
// reload that fails keeps serving the previous table. An API whose compilation inputs are unchanged since the
// served load is not compiled again: the new table holds the same compiled API (compiled-apis.ts). With
// GW_RELOAD_COMPILE_ALL=1 every load compiles every API, as before (bench/reload.ts measures both in one run).
//
// On worker threads a reload is a round the primary runs over every worker: each prepares its table, then all
// apply theirs (workers/primary.ts), so one reload switches every worker at once.
import type { Logger } from 'pino';
import type { LoadReport } from './admin/deps.ts';
import { CompiledApis } from './compiled-apis.ts';
import type { GatewayConfig } from './config.ts';
import type { RemoteDefinitions } from './dashboard-sync/sync.ts';
import { releaseUnusedTemplates } from './definition/body-transforms.ts';
import { loadRoutes, type LoadResult } from './loader.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { PipelineServices } from './pipeline/services.ts';
import type { ProxyHandler } from './proxy/handler.ts';
import type { UpstreamPools } from './proxy/upstream-pools.ts';
import type { SessionCache } from './session/session-cache.ts';
import type { Store, StoredPolicy } from './store/store.ts';
import type { TcpListeners } from './tcp/tcp-listeners.ts';
import type { ServerCertificates } from './tls/server-certificates.ts';
import type { UptimeChecker } from './uptime/host-checker.ts';

/** A routing table built and not yet serving (a worker's reload round between prepare and commit). */
export type PreparedLoad = LoadResult;

/** What a load reads and what it switches: the gateway's parts. */
export interface LoadTargets {
  config: GatewayConfig;
  store: Store;
  log: Logger;
  metrics: GatewayMetrics;
  services: PipelineServices;
  proxy: ProxyHandler;
  sessions: SessionCache;
  uptime: UptimeChecker;
  pools: UpstreamPools;
  tls: ServerCertificates;
  tcp: TcpListeners;
  /** The dashboard's definitions in licensed mode. */
  remote: () => RemoteDefinitions | undefined;
}

export class RoutingLoads {
  readonly #targets: LoadTargets;
  readonly #compiled: CompiledApis;
  /** GW_RELOAD_COMPILE_ALL=1: keep nothing between loads. */
  readonly #compileAll = process.env.GW_RELOAD_COMPILE_ALL === '1';
  #policies = new Map<string, StoredPolicy>();
  #lastLoad: LoadReport | undefined;
  #reloading: Promise<LoadReport> | undefined;
  #queued: Promise<LoadReport> | undefined;

  constructor(targets: LoadTargets) {
    this.#targets = targets;
    this.#compiled = new CompiledApis(targets.config);
  }

  /** The served load's policy with this id. */
  policy(id: string): StoredPolicy | undefined {
    return this.#policies.get(id);
  }

  get lastLoad(): LoadReport | undefined {
    return this.#lastLoad;
  }

  /** Prepares and applies a load here, serialised with the others. */
  reload(): Promise<LoadReport> {
    if (this.#queued) return this.#queued;
    if (this.#reloading) {
      this.#queued = this.#reloading
        .catch(() => undefined)
        .then(() => {
          this.#queued = undefined;
          return this.#start();
        });
      return this.#queued;
    }
    return this.#start();
  }

  /** Builds the next routing table without serving it yet. */
  prepare(): Promise<PreparedLoad> {
    const { store, services, remote, config } = this.#targets;
    return loadRoutes(store, services, remote(), this.#compileAll ? new CompiledApis(config) : this.#compiled);
  }

  /** Serves a table `prepare` built. */
  async apply({ table, policies, problems: loadProblems, tcpApis, round }: PreparedLoad): Promise<LoadReport> {
    const { tcp, proxy, uptime, services, sessions, pools, store, metrics, log } = this.#targets;
    const problems = [...loadProblems, ...(await tcp.apply(tcpApis))];
    this.#policies = policies;
    proxy.use(table);
    this.#compiled.commit(round);
    uptime.use(table.routes().map((route) => route.spec));
    releaseUnusedTemplates(); // the body transforms' templates no loaded API uses any more
    services.streams.retainAcquired();
    sessions.setPolicies((id) => policies.get(id));
    pools.retain(
      new Set(
        table
          .routes()
          .flatMap((r) => [
            r.spec.target.origin,
            ...(r.spec.loadBalancedTargets ?? []).map((t) => t.origin),
            ...[...r.spec.versions.values()].flatMap((v) => (v.overrideTarget ? [v.overrideTarget.origin] : [])),
          ]),
      ),
    );
    this.rebuildCertificates(await store.listCerts());
    metrics.apisLoaded(table.size);
    metrics.retainApis(new Set(table.routes().map((r) => r.spec.id)));
    for (const problem of problems) log.error({ problem }, `cannot serve ${problem.id ? `api ${problem.id}` : problem.source}: ${problem.message}`);
    for (const { spec } of table.routes()) {
      if (spec.internal) log.info({ api_id: spec.id }, `api ${spec.id} is internal: not served to clients, only to internal looping (tyk://${spec.id}/...)`);
    }
    this.#lastLoad = { at: new Date().toISOString(), apis: table.size + tcp.apis().length, policies: policies.size, problems };
    log.info(
      { apis: table.size, policies: policies.size, problems: problems.length, compiled: round.compiledCount, reused: round.reusedCount },
      'configuration loaded',
    );
    return this.#lastLoad;
  }

  /** The TLS listeners' certificates and client-certificate names follow the loaded APIs and the store. */
  rebuildCertificates(stored: Awaited<ReturnType<Store['listCerts']>>): void {
    const { config, proxy, tcp, tls, log } = this.#targets;
    const { certificates: files, ssl_certificates: storeIds } = config.http_server_options;
    // An internal API is served to no client: its certificates and mTLS settings shape no handshake.
    const apis = proxy.table
      .routes()
      .filter(({ spec }) => !spec.internal)
      .map(({ spec }) => ({
        apiId: spec.id,
        domain: spec.domain,
        certificates: spec.certificates ?? [],
        requestsClientCertificate: spec.clientCertificates !== undefined || spec.tokenFromCertificate === true,
      }))
      .concat(tcp.apis().map((api) => ({ apiId: api.id, domain: api.domain, certificates: api.certificates, requestsClientCertificate: false })));
    for (const problem of tls.rebuild(stored, { files, storeIds, apis })) log.error({ problem }, `TLS certificate not served: ${problem}`);
  }

  #start(): Promise<LoadReport> {
    this.#reloading = this.#load().finally(() => (this.#reloading = undefined));
    return this.#reloading;
  }

  async #load(): Promise<LoadReport> {
    return this.apply(await this.prepare());
  }
}
