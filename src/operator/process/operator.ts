// The operator, wired: its informers (informers.ts), one controller per kind with its reconciler, the classic portal's
// controllers (portal/portal-watch.ts), the routing from events to keys (event-routing.ts), the drift scan and the
// change watch that triggers it per gateway. Everything else lives in the controllers.
import type { Logger } from 'pino';
import type { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import { Controller } from '../../kube/controller.ts';
import { EventRecorder } from '../../kube/events.ts';
import type { LeaderElector } from '../../kube/leader.ts';
import { Manager } from '../../kube/manager.ts';
import { objectKey } from '../../kube/object.ts';
import { CoreResources } from '../../kube/resource.ts';
import type { ManagementClient } from '../../mgmt/client.ts';
import type { Tracer } from '../../tracing/tracer.ts';
import { GraphUsers } from '../cluster/graph-users.ts';
import { GwResources, type ApiDefinitionObject } from '../cluster/resources.ts';
import { apiDefinitionKind } from '../controllers/apidefinition.ts';
import { IngressReconciler } from '../controllers/ingress.ts';
import { oasApiDefinitionKind } from '../controllers/oasapidefinition.ts';
import { OperatorContextReconciler } from '../controllers/operatorcontext.ts';
import { securityPolicyKind } from '../controllers/securitypolicy.ts';
import { streamsApiDefinitionKind } from '../controllers/streamsapidefinition.ts';
import { SubGraphReconciler } from '../controllers/subgraph.ts';
import { SuperGraphReconciler } from '../controllers/supergraph.ts';
import { templateUsers } from '../ingress/watch.ts';
import { DashboardPortalClient, PortalClients, type PortalClient } from '../portal/portal-client.ts';
import { watchPortal, type PortalControllers } from '../portal/portal-watch.ts';
import { CertificateSecrets } from '../sync/certificate-secrets.ts';
import { ChangeWatch } from '../sync/change-watch.ts';
import { ContextResolver } from '../sync/context.ts';
import { DriftScanner } from '../sync/drift.ts';
import { defaultClient, GatewayRegistry, type GatewayEnv } from '../sync/gateways.ts';
import { ApiOwners } from '../sync/load-problems.ts';
import { SyncReconciler, type SyncKind, type SyncedObject } from '../sync/sync.ts';
import { ResourceWriter } from '../sync/writer.ts';
import type { OperatorConfig } from './config.ts';
import { routeEvents, type OperatorControllers } from './event-routing.ts';
import { operatorInformers } from './informers.ts';
import { OperatorMetrics } from './metrics.ts';
import { managementCallTrace, tracedReconciler } from './tracing.ts';

export interface OperatorOptions {
  /** Management clients by gateway (tests inject); default: GatewayClient for ce. */
  clientFor?: (env: GatewayEnv) => ManagementClient;
  /** Leader election (gw operator --leader-elect): controllers and the drift scan run only on the leader. */
  leaderElection?: LeaderElector;
  /** Dashboard portal clients by gateway (tests inject); default: DashboardPortalClient. */
  portalClientFor?: (env: GatewayEnv) => PortalClient;
  /** OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT): a span per reconcile and per management call (tracing.ts). */
  tracer?: Tracer;
}

export class Operator {
  readonly manager: Manager;
  readonly metrics = new OperatorMetrics();
  readonly drift: DriftScanner;
  readonly changeWatch: ChangeWatch;
  readonly registry: GatewayRegistry;
  readonly writer: ResourceWriter;
  /** The ApiDefinitions of the watched namespaces (admission checks a listen path against them). */
  readonly apiDefinitions: Cache<ApiDefinitionObject>;
  readonly controllers: OperatorControllers;
  /** The classic portal kinds (portal-watch.ts). */
  readonly portal: PortalControllers;
  readonly #contexts: ContextResolver;

  constructor(kube: KubeClient, config: OperatorConfig, log: Logger, options: OperatorOptions = {}) {
    kube.observeRequests(this.metrics.kubeRequest);
    this.manager = new Manager(kube, {
      log,
      ...(options.leaderElection ? { leaderElection: options.leaderElection } : {}),
      onLeading: (leading) => this.metrics.leader.set(leading ? 1 : 0),
      // Reloads are gateway calls outside reconciles: a deposed leader sends none (pending ones go with it).
      onLostLeadership: () => {
        this.registry.refuseWrites('this replica lost its leader Lease');
        this.registry.stop();
      },
      // One list of the default gateway right before reconciles start (on a standby: when it takes over, not when
      // it started, so what it believes is on the gateway is current): re-verifying everything costs three requests.
      beforeControllers: async () => {
        await this.#contexts.defaultGateway.mirror.refresh().catch((error: unknown) => {
          log.warn({ err: (error as Error).message }, 'default gateway not reachable: resources will retry');
        });
      },
    });
    const informers = operatorInformers(this.manager, config.watchNamespaces);
    const { apis, oas, streams, policies, contexts, configMaps, secrets, subgraphs, supergraphs, ingress } = informers;
    this.apiDefinitions = apis.cache;
    const graphUsers = new GraphUsers(apis.cache, supergraphs.cache);

    const tracer = options.tracer;
    const callTrace = tracer ? managementCallTrace(tracer) : undefined;
    this.registry = new GatewayRegistry(config.reloadDebounceMs, log, options.clientFor ?? ((env) => defaultClient(env, this.metrics.gatewayCall, callTrace)));
    this.#contexts = new ContextResolver(config, contexts.cache, kube, this.registry);
    this.writer = new ResourceWriter(kube, new EventRecorder(kube, 'gw-operator', log));
    const certificateSecrets = new CertificateSecrets(secrets.cache, kube);
    const services = {
      contexts: this.#contexts,
      writer: this.writer,
      metrics: this.metrics,
      log,
      mirrorMaxAgeMs: config.driftPeriodMs,
      owners: new ApiOwners(),
    };
    const controller = (name: string, reconciler: ConstructorParameters<typeof Controller>[0]): Controller => {
      const built = new Controller(tracer ? tracedReconciler(tracer, name, reconciler) : reconciler, {
        name,
        workers: config.maxConcurrentReconciles,
        reconcileTimeoutMs: config.reconcileTimeoutMs,
        log,
        observe: this.metrics.observer(name),
        queueHooks: this.metrics.queueHooks(name),
      });
      this.metrics.watchQueue(name, built.queue);
      this.manager.add(built);
      return built;
    };
    const apiKind = apiDefinitionKind(apis.cache, policies.cache, certificateSecrets, templateUsers(ingress.ingresses), {
      subgraph: (key) => subgraphs.cache.get(key),
      supergraph: (key) => supergraphs.cache.get(key),
      subgraphApi: (namespace, name) => graphUsers.subgraphApi(namespace, name),
    });
    const oasKind = oasApiDefinitionKind(oas.cache, configMaps.cache, policies.cache, certificateSecrets, templateUsers(ingress.ingresses));
    const streamsKind = streamsApiDefinitionKind(streams.cache, configMaps.cache, policies.cache);
    const policyKind = securityPolicyKind(policies.cache, apis.cache, oas.cache, streams.cache);
    const portal = watchPortal(
      this.manager,
      config.watchNamespaces,
      {
        contexts: this.#contexts,
        writer: this.writer,
        portal: new PortalClients(options.portalClientFor ?? ((env) => new DashboardPortalClient(env, this.metrics.gatewayCall))),
        log,
        resyncMs: config.driftPeriodMs,
      },
      controller,
      (key) => this.controllers.contexts.enqueue(key),
      (key) => this.controllers.policies.enqueue(key),
    );
    this.portal = portal.controllers;
    // A policy a catalogue on a dashboard publishes is not deleted (Tyk's rule).
    const policyBlockers = policyKind.deletionBlockers.bind(policyKind);
    policyKind.deletionBlockers = (p) => [...policyBlockers(p), ...portal.policyBlockers(objectKey(p))];
    const reconcilers = {
      apis: new SyncReconciler(apiKind, services, (key) => this.controllers.apis.enqueue(key)),
      oas: new SyncReconciler(oasKind, services, (key) => this.controllers.oas.enqueue(key)),
      streams: new SyncReconciler(streamsKind, services, (key) => this.controllers.streams.enqueue(key)),
      policies: new SyncReconciler(policyKind, services, (key) => this.controllers.policies.enqueue(key)),
    };
    this.controllers = {
      apis: controller('ApiDefinition', reconcilers.apis),
      oas: controller('GwOasApiDefinition', reconcilers.oas),
      streams: controller('GwStreamsApiDefinition', reconcilers.streams),
      policies: controller('SecurityPolicy', reconcilers.policies),
      subgraphs: controller('SubGraph', new SubGraphReconciler(subgraphs.cache, graphUsers, this.writer)),
      supergraphs: controller('SuperGraph', new SuperGraphReconciler(supergraphs.cache, subgraphs.cache, graphUsers, this.writer)),
      contexts: controller(
        'OperatorContext',
        new OperatorContextReconciler(
          contexts.cache,
          { apis: apis.cache, oas: oas.cache, streams: streams.cache, policies: policies.cache, portal: portal.caches },
          this.#contexts,
          this.writer,
        ),
      ),
      ingresses: controller(
        'Ingress',
        new IngressReconciler(
          {
            ingresses: ingress.ingresses.cache,
            classes: ingress.classes.cache,
            services: ingress.services.cache,
            apis: apis.cache,
            oas: oas.cache,
            configMaps: configMaps.cache,
          },
          kube,
          this.writer,
          { watchedClass: config.ingressClass, publishAddresses: config.ingressPublishAddresses },
          { api: GwResources.apiDefinition, oas: GwResources.oasApiDefinition, configMap: CoreResources.configMap },
          this.#contexts,
          certificateSecrets,
        ),
      ),
    };
    const c = this.controllers;
    routeEvents(informers, c, graphUsers);

    this.drift = new DriftScanner(
      [
        {
          kind: apiKind as unknown as SyncKind<SyncedObject>,
          controller: c.apis,
          writtenGatewayHash: (key, uid) => reconcilers.apis.writtenGatewayHash(key, uid),
        },
        {
          kind: oasKind as unknown as SyncKind<SyncedObject>,
          controller: c.oas,
          writtenGatewayHash: (key, uid) => reconcilers.oas.writtenGatewayHash(key, uid),
        },
        {
          kind: streamsKind as unknown as SyncKind<SyncedObject>,
          controller: c.streams,
          writtenGatewayHash: (key, uid) => reconcilers.streams.writtenGatewayHash(key, uid),
        },
        {
          kind: policyKind as unknown as SyncKind<SyncedObject>,
          controller: c.policies,
          writtenGatewayHash: (key, uid) => reconcilers.policies.writtenGatewayHash(key, uid),
        },
      ],
      this.#contexts,
      this.metrics,
      log,
      config.driftPeriodMs,
    );
    this.manager.addLeaderRunnable((signal) => this.drift.run(signal));
    this.changeWatch = new ChangeWatch(this.registry, this.drift, log, { onChange: portal.onDashboardChange });
    this.manager.addLeaderRunnable((signal) => this.changeWatch.run(signal));
    const queueDepth = this.metrics.queueDepth;
    const everyController = [...Object.values(c), portal.controllers.descriptions, portal.controllers.catalogues, portal.controllers.configs];
    setInterval(() => {
      for (const built of everyController) queueDepth.labels(built.name).set(built.queue.length + built.queue.delayedLength);
    }, 1000).unref();
  }

  get ready(): boolean {
    return this.manager.synced;
  }

  /** Runs until the signal aborts, then drains. */
  async run(signal: AbortSignal): Promise<void> {
    await this.manager.run(signal);
    this.registry.stop();
  }
}
