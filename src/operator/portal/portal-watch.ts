// The portal kinds wired into the operator: their informers and indexes, the three controllers, and which events
// reach which keys:
//   APIDescription      itself; the catalogues listing it; its context; its policy before and after
//   PortalAPICatalogue  itself; the APIDescriptions it lists before and after (linked_by_catalogues, deletion);
//                       its context
//   PortalConfig        itself; its context
//   (deletion of either)  every other one of its kind (one per organisation: another may own it now)
//   SecurityPolicy      (created, deleted, pol_id or sync outcome changed) the descriptions naming it and the
//                       catalogues naming it inline or listing those descriptions
//   ApiDefinition / GwOasApiDefinition   (sync state changed) the descriptions documenting it, and their catalogues
//   ConfigMap           the descriptions reading their document from it, and their catalogues
//   OperatorContext     every portal resource naming it
// and the SecurityPolicies a catalogue publishes (before and after a change) hear of it: a catalogue on a
// dashboard holds their deletion (policyBlockers). When a dashboard's change feed moves (change-watch.ts: a portal
// edit by hand, or anything else of that organisation), the catalogues and configurations synced to it are queued
// (onDashboardChange): their reconcile compares with the dashboard's copy and puts back what was changed.
// Informers are the manager's shared ones (the same as the synced kinds' for policies, APIs and ConfigMaps).
import type { Controller } from '../../kube/controller.ts';
import type { Informer } from '../../kube/informer.ts';
import type { Manager } from '../../kube/manager.ts';
import { keyOf, objectKey, type KubeObject } from '../../kube/object.ts';
import { CoreResources } from '../../kube/resource.ts';
import { contextKeyOf } from '../sync/context.ts';
import { APIDescriptionReconciler } from '../controllers/apidescription.ts';
import type { PortalServices } from '../controllers/portal-lifecycle.ts';
import type { GatewayHandle } from '../sync/gateways.ts';
import { PortalAPICatalogueReconciler } from '../controllers/portalapicatalogue.ts';
import { PortalConfigReconciler } from '../controllers/portalconfig.ts';
import { CONTEXT } from '../cluster/indexes.ts';
import { policyKeyOf, type PortalLookups } from './portal-entries.ts';
import {
  addPortalIndexes,
  CATALOGUE_POLICIES,
  cataloguesPublishingPolicy,
  DESCRIPTION_API,
  DESCRIPTION_CONFIG_MAP,
  DESCRIPTION_POLICY,
  DESCRIPTIONS,
  descriptionKeysOf,
} from './portal-indexes.ts';
import { PortalResources, type APIDescriptionObject, type PortalAPICatalogueObject, type PortalConfigObject } from './portal-resources.ts';
import {
  GwResources,
  type ApiDefinitionObject,
  type ConfigMapObject,
  type OasApiDefinitionObject,
  type OperatorContextObject,
  type SecurityPolicyObject,
} from '../cluster/resources.ts';
import { meaningful, syncState } from '../cluster/update-filter.ts';

export interface PortalControllers {
  descriptions: Controller;
  catalogues: Controller;
  configs: Controller;
}

export interface PortalCaches {
  descriptions: Informer<APIDescriptionObject>['cache'];
  catalogues: Informer<PortalAPICatalogueObject>['cache'];
  configs: Informer<PortalConfigObject>['cache'];
}

/**
 * Creates the portal informers, indexes and controllers. `controller` builds and registers a controller (the
 * operator's, with its metrics and options); `enqueueContext` queues an OperatorContext (its linked_* lists).
 */
export function watchPortal(
  manager: Manager,
  namespaces: string[] | undefined,
  services: PortalServices,
  controller: (name: string, reconciler: ConstructorParameters<typeof Controller>[0]) => Controller,
  enqueueContext: (key: string) => void,
  enqueuePolicy: (key: string) => void,
): {
  controllers: PortalControllers;
  caches: PortalCaches;
  policyBlockers: (policyKey: string) => string[];
  onDashboardChange: (handle: GatewayHandle) => void;
} {
  const scope = { namespaces };
  const descriptions = manager.informer<APIDescriptionObject>(PortalResources.apiDescription, scope);
  const catalogues = manager.informer<PortalAPICatalogueObject>(PortalResources.catalogue, scope);
  const configs = manager.informer<PortalConfigObject>(PortalResources.config, scope);
  const policies = manager.informer<SecurityPolicyObject>(GwResources.securityPolicy, scope);
  const apis = manager.informer<ApiDefinitionObject>(GwResources.apiDefinition, scope);
  const oas = manager.informer<OasApiDefinitionObject>(GwResources.oasApiDefinition, scope);
  const configMaps = manager.informer<ConfigMapObject>(CoreResources.configMap, scope);
  const contexts = manager.informer<OperatorContextObject>(GwResources.operatorContext, scope);
  addPortalIndexes({ descriptions: descriptions.cache, catalogues: catalogues.cache, configs: configs.cache });
  const lookups: PortalLookups = { policies: policies.cache, apis: apis.cache, oas: oas.cache, configMaps: configMaps.cache };

  const c: PortalControllers = {
    descriptions: controller('APIDescription', new APIDescriptionReconciler(descriptions.cache, catalogues.cache, lookups, services)),
    catalogues: controller('PortalAPICatalogue', new PortalAPICatalogueReconciler(catalogues.cache, descriptions.cache, lookups, services)),
    configs: controller('PortalConfig', new PortalConfigReconciler(configs.cache, services)),
  };
  const toContext = (o: KubeObject & { spec?: unknown }): void => {
    const key = contextKeyOf(o as Parameters<typeof contextKeyOf>[0]);
    if (key) enqueueContext(key);
  };
  /** A description and every catalogue listing it. */
  const description = (d: APIDescriptionObject): void => {
    const key = objectKey(d);
    c.descriptions.enqueue(key);
    for (const catalogue of catalogues.cache.byIndex(DESCRIPTIONS, key)) c.catalogues.enqueue(objectKey(catalogue));
  };

  onChange(descriptions, (d, old) => {
    description(d);
    toContext(d);
    for (const key of new Set([policyKeyOf(d), old ? policyKeyOf(old) : undefined])) if (key) enqueuePolicy(key);
  });
  /** The policies a catalogue publishes: inline, and through the descriptions it lists. */
  const policiesOf = (catalogue: PortalAPICatalogueObject): string[] => [
    ...(catalogue.spec.apis ?? []).flatMap((entry) =>
      entry.policyRef ? [keyOf(entry.policyRef.namespace || catalogue.metadata.namespace, entry.policyRef.name)] : [],
    ),
    ...descriptionKeysOf(catalogue).flatMap((key) => {
      const d = descriptions.cache.get(key);
      const policy = d ? policyKeyOf(d) : undefined;
      return policy ? [policy] : [];
    }),
  ];
  onChange(catalogues, (catalogue, old) => {
    c.catalogues.enqueue(objectKey(catalogue));
    for (const key of new Set([...descriptionKeysOf(catalogue), ...(old ? descriptionKeysOf(old) : [])])) c.descriptions.enqueue(key);
    for (const key of new Set([...policiesOf(catalogue), ...(old ? policiesOf(old) : [])])) enqueuePolicy(key);
    toContext(catalogue);
  });
  onChange(configs, (config) => {
    c.configs.enqueue(objectKey(config));
    toContext(config);
  });
  // The oldest of several for one organisation owns it: when one goes, another may take over.
  catalogues.addHandlers({ onDelete: () => catalogues.cache.list().forEach((o) => c.catalogues.enqueue(objectKey(o))) });
  configs.addHandlers({ onDelete: () => configs.cache.list().forEach((o) => c.configs.enqueue(objectKey(o))) });
  const policyState = (p: SecurityPolicyObject): string => `${p.status?.pol_id ?? ''}|${p.status?.latestTransaction?.status ?? ''}`;
  onDependency(policies, policyState, (p) => {
    const key = objectKey(p);
    descriptions.cache.byIndex(DESCRIPTION_POLICY, key).forEach(description);
    for (const catalogue of catalogues.cache.byIndex(CATALOGUE_POLICIES, key)) c.catalogues.enqueue(objectKey(catalogue));
  });
  onDependency(apis, syncState, (a) => descriptions.cache.byIndex(DESCRIPTION_API, `ApiDefinition:${objectKey(a)}`).forEach(description));
  onDependency(oas, syncState, (a) => descriptions.cache.byIndex(DESCRIPTION_API, `GwOasApiDefinition:${objectKey(a)}`).forEach(description));
  onDependency(
    configMaps,
    (cm) => cm.metadata.resourceVersion ?? '',
    (cm) => descriptions.cache.byIndex(DESCRIPTION_CONFIG_MAP, objectKey(cm)).forEach(description),
  );
  onChange(contexts, (ctx) => {
    const key = objectKey(ctx);
    descriptions.cache.byIndex(CONTEXT, key).forEach((d) => c.descriptions.enqueue(objectKey(d)));
    catalogues.cache.byIndex(CONTEXT, key).forEach((o) => c.catalogues.enqueue(objectKey(o)));
    configs.cache.byIndex(CONTEXT, key).forEach((o) => c.configs.enqueue(objectKey(o)));
  });
  const caches = { descriptions: descriptions.cache, catalogues: catalogues.cache, configs: configs.cache };
  /** The catalogues and configurations on `handle` (its organisation's: a handle is one dashboard and credential). */
  const onDashboardChange = (handle: GatewayHandle): void => {
    const queue = async (cache: PortalCaches['catalogues'] | PortalCaches['configs'], controller: Controller): Promise<void> => {
      for (const object of cache.list()) {
        if (object.metadata.deletionTimestamp) continue;
        const context = await services.contexts.resolve(object).catch(() => undefined);
        if (context?.gateway === handle) controller.enqueue(objectKey(object));
      }
    };
    const failed = (error: unknown): void => services.log.warn({ err: (error as Error).message }, 'queueing the portal kinds after a dashboard change failed');
    void queue(catalogues.cache, c.catalogues).catch(failed);
    void queue(configs.cache, c.configs).catch(failed);
  };
  return { controllers: c, caches, policyBlockers: (policyKey) => cataloguesPublishingPolicy(caches, policyKey), onDashboardChange };
}

/** On add, a meaningful update (old object passed too) and delete. */
function onChange<T extends KubeObject>(informer: Informer<T>, handle: (object: T, old?: T) => void): void {
  informer.addHandlers({
    onAdd: (object) => handle(object),
    onUpdate: (old, object) => {
      if (meaningful(old, object)) handle(object, old);
    },
    onDelete: (object) => handle(object),
  });
}

/** A dependency: on add, delete, and an update that changes `state` (what its dependents read of it). */
function onDependency<T extends KubeObject>(informer: Informer<T>, state: (object: T) => string, handle: (object: T) => void): void {
  informer.addHandlers({
    onAdd: handle,
    onUpdate: (old, object) => {
      if (state(old) !== state(object)) handle(object);
    },
    onDelete: handle,
  });
}
