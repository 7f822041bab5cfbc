// The operator, wired: informers for the gw kinds, ConfigMaps and OperatorContexts (in WATCH_NAMESPACE or all), the
// indexes between them, one controller per kind, the drift scan and the change watch that triggers it per gateway,
// and the mapping from events to keys:
//   ApiDefinition / GwOasApiDefinition   itself; the policies naming it (they may be waiting for it); its context
//   / GwStreamsApiDefinition
//   SecurityPolicy                       itself; the APIs it names before and after (their links, their deletion)
//   ConfigMap                            the OAS and Streams APIs reading it (namespace and name)
//   Secret (kubernetes.io/tls only)      the APIs, OAS APIs and Ingresses naming it (a rotation reaches the gateway)
//   SecurityPolicy <-> ApiDefinition     also the APIs naming a policy in jwt_default_policies, and the policies an
//                                        API names there before and after (their linked_by_apis)
//   OperatorContext                      itself; every resource naming it
//   SubGraph / SuperGraph                itself; the SuperGraphs composing it and every API it reaches
//                                        (graph-users.ts), on any change including status (a composed SDL)
//   Ingress, IngressClass, Service       the Ingresses concerned (ingress/watch.ts)
//   APIDescription, PortalAPICatalogue, PortalConfig   the classic portal kinds (portal-watch.ts)
// Updates that change only status are not reconciles (the spec's generation, deletion and finalizers are what
// matter), so the operator's own status writes do not feed back. Everything else lives in the controllers.
import { ApiOwners } from '../sync/load-problems.ts';
import type { Logger } from 'pino';
import type { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import { Controller } from '../../kube/controller.ts';
import { EventRecorder } from '../../kube/events.ts';
import type { LeaderElector } from '../../kube/leader.ts';
import { Manager } from '../../kube/manager.ts';
import { objectKey, type KubeObject } from '../../kube/object.ts';
import { CoreResources } from '../../kube/resource.ts';
import type { ManagementClient } from '../../mgmt/client.ts';
import type { OperatorConfig } from './config.ts';
import { ContextResolver, contextKeyOf } from '../sync/context.ts';
import { apiDefinitionKind } from '../controllers/apidefinition.ts';
import { oasApiDefinitionKind } from '../controllers/oasapidefinition.ts';
import { streamsApiDefinitionKind } from '../controllers/streamsapidefinition.ts';
import { OperatorContextReconciler } from '../controllers/operatorcontext.ts';
import { IngressReconciler } from '../controllers/ingress.ts';
import { securityPolicyKind } from '../controllers/securitypolicy.ts';
import { SubGraphReconciler, watchServingApis } from '../controllers/subgraph.ts';
import { SuperGraphReconciler } from '../controllers/supergraph.ts';
import { GraphUsers } from '../cluster/graph-users.ts';
import { ingressInformers, templateUsers, watchIngresses } from '../ingress/watch.ts';
import { ChangeWatch } from '../sync/change-watch.ts';
import { DriftScanner } from '../sync/drift.ts';
import { defaultClient, GatewayRegistry, type GatewayEnv } from '../sync/gateways.ts';
import {
  addIndexes,
  CONFIG_MAP,
  CONTEXT,
  graphRefOf,
  JWT_POLICIES,
  OAS_VERSIONS,
  POLICY_TARGETS,
  SECRETS,
  subgraphKeysOf,
  targetValue,
} from '../cluster/indexes.ts';
import { CertificateSecrets, TLS_SECRET_SELECTOR } from '../sync/certificate-secrets.ts';
import { TLS_SECRETS } from '../ingress/ingress-indexes.ts';
import { oasVersionReferences } from '../translate/oas-versioning.ts';
import { jwtPolicyResources } from '../translate/apidefinition.ts';
import { OperatorMetrics } from './metrics.ts';
import { managementCallTrace, tracedReconciler } from './tracing.ts';
import type { Tracer } from '../../tracing/tracer.ts';
import { DashboardPortalClient, PortalClients, type PortalClient } from '../portal/portal-client.ts';
import { watchPortal, type PortalControllers } from '../portal/portal-watch.ts';
import {
  GwResources,
  type ApiDefinitionObject,
  type ConfigMapObject,
  type OasApiDefinitionObject,
  type OperatorContextObject,
  type SecretObject,
  type SecurityPolicyObject,
  type StreamsApiDefinitionObject,
  type SubGraphObject,
  type SuperGraphObject,
} from '../cluster/resources.ts';
import { SyncReconciler, type SyncKind, type SyncedObject } from '../sync/sync.ts';
import { apiReferences, type ApiReferenceKind } from '../translate/securitypolicy.ts';
import { ResourceWriter } from '../sync/writer.ts';
import { watch, watchAll, watchApi } from '../cluster/event-handlers.ts';
import { meaningful } from '../cluster/update-filter.ts';

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
  readonly controllers: Record<'apis' | 'oas' | 'streams' | 'policies' | 'contexts' | 'ingresses' | 'subgraphs' | 'supergraphs', Controller>;
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
    const scope = { namespaces: config.watchNamespaces };
    const apis = this.manager.informer<ApiDefinitionObject>(GwResources.apiDefinition, scope);
    const oas = this.manager.informer<OasApiDefinitionObject>(GwResources.oasApiDefinition, scope);
    const streams = this.manager.informer<StreamsApiDefinitionObject>(GwResources.streamsApiDefinition, scope);
    const policies = this.manager.informer<SecurityPolicyObject>(GwResources.securityPolicy, scope);
    const contexts = this.manager.informer<OperatorContextObject>(GwResources.operatorContext, scope);
    const configMaps = this.manager.informer<ConfigMapObject>(CoreResources.configMap, scope);
    const secrets = this.manager.informer<SecretObject>(CoreResources.secret, { ...scope, fieldSelector: TLS_SECRET_SELECTOR });
    const subgraphs = this.manager.informer<SubGraphObject>(GwResources.subGraph, scope);
    const supergraphs = this.manager.informer<SuperGraphObject>(GwResources.superGraph, scope);
    this.apiDefinitions = apis.cache;
    addIndexes({ apis: apis.cache, oas: oas.cache, policies: policies.cache, supergraphs: supergraphs.cache, streams: streams.cache });
    const graphUsers = new GraphUsers(apis.cache, supergraphs.cache);
    const ingress = ingressInformers(this.manager, config.watchNamespaces, { apis, oas, configMaps });

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
    watchIngresses(ingress, { apis, oas, configMaps }, c);

    const referrersOfApi = (kind: ApiReferenceKind, o: KubeObject): void => {
      for (const p of policies.cache.byIndex(POLICY_TARGETS, targetValue(kind, o.metadata.namespace, o.metadata.name))) c.policies.enqueue(objectKey(p));
    };
    const toContext = (o: KubeObject & { spec?: unknown }): void => {
      const key = contextKeyOf(o as Parameters<typeof contextKeyOf>[0]);
      if (key) c.contexts.enqueue(key);
    };
    const apiTargets = (p: SecurityPolicyObject): void => {
      for (const ref of apiReferences(p.metadata.namespace, p.spec)) {
        ({ ApiDefinition: c.apis, GwOasApiDefinition: c.oas, GwStreamsApiDefinition: c.streams })[ref.kind].enqueue(`${ref.namespace}/${ref.name}`);
      }
    };
    // An API naming a graph is in that graph's status (links) and holds its deletion; an API naming a SubGraph is
    // also the upstream of the SuperGraphs composing it.
    const graphOfApi = (o: ApiDefinitionObject): void => {
      const ref = graphRefOf(o);
      if (ref?.startsWith('SuperGraph:')) c.supergraphs.enqueue(ref.slice('SuperGraph:'.length));
      if (!ref?.startsWith('SubGraph:')) return;
      const key = ref.slice('SubGraph:'.length);
      c.subgraphs.enqueue(key);
      const [namespace, name] = key.split('/') as [string, string];
      for (const api of graphUsers.apisReachedBySubgraph({ metadata: { namespace, name } }))
        if (objectKey(api) !== objectKey(o)) c.apis.enqueue(objectKey(api));
    };
    watchApi(
      apis,
      (o) => c.apis.enqueue(objectKey(o)),
      (o) => {
        referrersOfApi('ApiDefinition', o);
        toContext(o);
        graphOfApi(o);
      },
    );
    watchServingApis(apis, (key) => c.subgraphs.enqueue(key));
    watchAll(subgraphs, (s) => {
      c.subgraphs.enqueue(objectKey(s));
      for (const sg of graphUsers.supergraphsComposing(s)) c.supergraphs.enqueue(objectKey(sg));
      for (const api of graphUsers.apisNaming('SubGraph', s)) c.apis.enqueue(objectKey(api));
    });
    watchAll(supergraphs, (sg, old) => {
      c.supergraphs.enqueue(objectKey(sg));
      // Its SubGraphs, before and after (their linked_by_supergraphs, their deletion).
      for (const key of new Set([...subgraphKeysOf(sg), ...(old ? subgraphKeysOf(old) : [])])) c.subgraphs.enqueue(key);
      for (const api of graphUsers.apisNaming('SuperGraph', sg)) c.apis.enqueue(objectKey(api));
    });
    watchApi(
      oas,
      (o) => c.oas.enqueue(objectKey(o)),
      (o) => {
        referrersOfApi('GwOasApiDefinition', o);
        toContext(o);
        for (const base of oas.cache.byIndex(OAS_VERSIONS, objectKey(o))) c.oas.enqueue(objectKey(base)); // a base API naming it as a version
      },
    );
    // The versions a base names, before and after a change: one it no longer lists may now be deleted, and each
    // one's versioningStatus follows.
    const namedVersions = (o: OasApiDefinitionObject): void =>
      oasVersionReferences(o.spec.versioning, o.metadata.namespace ?? 'default').forEach((r) => c.oas.enqueue(`${r.namespace}/${r.name}`));
    oas.addHandlers({
      onAdd: namedVersions,
      onUpdate: (old, o) => {
        if (JSON.stringify(old.spec.versioning) !== JSON.stringify(o.spec.versioning)) [old, o].forEach(namedVersions);
      },
      onDelete: namedVersions,
    });
    watchApi(
      streams,
      (o) => c.streams.enqueue(objectKey(o)),
      (o) => {
        referrersOfApi('GwStreamsApiDefinition', o);
        toContext(o);
      },
    );
    watch(policies, (p) => {
      c.policies.enqueue(objectKey(p));
      apiTargets(p);
      toContext(p);
      for (const api of apis.cache.byIndex(JWT_POLICIES, objectKey(p))) c.apis.enqueue(objectKey(api)); // waiting for it
    });
    const jwtPolicies = (o: ApiDefinitionObject): void => jwtPolicyResources(o.spec).forEach((key) => c.policies.enqueue(key));
    apis.addHandlers({
      onAdd: jwtPolicies,
      onUpdate: (old, o) => {
        if (!meaningful(old, o)) return;
        jwtPolicies(old);
        jwtPolicies(o);
      },
      onDelete: jwtPolicies,
    });
    const secretUsers = (secret: SecretObject): void => {
      const key = objectKey(secret);
      for (const o of apis.cache.byIndex(SECRETS, key)) c.apis.enqueue(objectKey(o));
      for (const o of oas.cache.byIndex(SECRETS, key)) c.oas.enqueue(objectKey(o));
      for (const o of ingress.ingresses.cache.byIndex(TLS_SECRETS, key)) c.ingresses.enqueue(objectKey(o));
    };
    secrets.addHandlers({
      onAdd: secretUsers,
      onUpdate: (old, secret) => {
        if (old.metadata.resourceVersion !== secret.metadata.resourceVersion) secretUsers(secret);
      },
      onDelete: secretUsers,
    });
    watch(contexts, (ctx) => {
      const key = objectKey(ctx);
      c.contexts.enqueue(key);
      for (const o of apis.cache.byIndex(CONTEXT, key)) c.apis.enqueue(objectKey(o));
      for (const o of oas.cache.byIndex(CONTEXT, key)) c.oas.enqueue(objectKey(o));
      for (const o of streams.cache.byIndex(CONTEXT, key)) c.streams.enqueue(objectKey(o));
      for (const o of policies.cache.byIndex(CONTEXT, key)) c.policies.enqueue(objectKey(o));
    });
    const documentReaders = (cm: ConfigMapObject): void => {
      for (const o of oas.cache.byIndex(CONFIG_MAP, objectKey(cm))) c.oas.enqueue(objectKey(o));
      for (const o of streams.cache.byIndex(CONFIG_MAP, objectKey(cm))) c.streams.enqueue(objectKey(o));
    };
    configMaps.addHandlers({ onAdd: documentReaders, onUpdate: (_old, cm) => documentReaders(cm), onDelete: documentReaders });

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
