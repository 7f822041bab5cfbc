// The Ingress controller's informers and the mapping from their events to keys:
//   Ingress            itself, every Ingress sharing a host+path with it before or after (a conflict's loser takes
//                      over when the winner goes or moves), and the template it names before and after (its status
//                      lists its Ingresses)
//   IngressClass       every Ingress (which ones are ours may have changed; classes are few and change rarely)
//   Service            the Ingresses whose backends name it (named ports)
//   ApiDefinition,     the Ingress controlling it (its sync state, or someone changed or deleted it); for a
//   GwOasApiDefinition template, the Ingresses naming it (editing a template updates every API made from it).
//                      Status-only updates (update-filter.ts) wake an Ingress only when a sync it waits on ended.
//   ConfigMap          the Ingress controlling it; for the document of an OAS template, the Ingresses naming it
import type { Cache } from '../../kube/cache.ts';
import type { Controller } from '../../kube/controller.ts';
import type { Manager } from '../../kube/manager.ts';
import { objectKey, type KubeObject } from '../../kube/object.ts';
import type { Informer } from '../../kube/informer.ts';
import { CONFIG_MAP } from '../cluster/indexes.ts';
import type { ApiDefinitionObject, ConfigMapObject, OasApiDefinitionObject } from '../cluster/resources.ts';
import { BACKEND_SERVICES, CLAIMS, TEMPLATE, addIngressIndexes } from './ingress-indexes.ts';
import { INGRESS_LABEL, ingressControllerRef, IngressResources, type IngressClassObject, type IngressObject, type ServiceObject } from './kinds.ts';
import { claimOf, ingressRoutes } from './routes.ts';
import { isTemplate, templateKey, templateRefOf, type TemplateKind } from './templates.ts';
import type { TemplateUsers } from './template-status.ts';
import { meaningful, syncedGeneration } from '../cluster/update-filter.ts';

export interface IngressInformers {
  ingresses: Informer<IngressObject>;
  classes: Informer<IngressClassObject>;
  services: Informer<ServiceObject>;
}

export interface ApiInformers {
  apis: Informer<ApiDefinitionObject>;
  oas: Informer<OasApiDefinitionObject>;
  configMaps: Informer<ConfigMapObject>;
}

export function ingressInformers(manager: Manager, namespaces: string[], owned: ApiInformers): IngressInformers {
  const informers = {
    ingresses: manager.informer<IngressObject>(IngressResources.ingress, { namespaces }),
    classes: manager.informer<IngressClassObject>(IngressResources.ingressClass),
    services: manager.informer<ServiceObject>(IngressResources.service, { namespaces }),
  };
  addIngressIndexes(informers.ingresses.cache, [owned.apis.cache, owned.oas.cache, owned.configMaps.cache] as unknown as Cache<KubeObject>[]);
  return informers;
}

/** The Ingresses naming a template (its status). */
export function templateUsers(ingresses: Informer<IngressObject>): TemplateUsers {
  return (kind, namespace, name) => ingresses.cache.byIndex(TEMPLATE, templateKey({ kind, namespace, name })).map(objectKey);
}

export function watchIngresses(
  informers: IngressInformers,
  owned: ApiInformers,
  controllers: { ingresses: Controller; apis: Controller; oas: Controller },
): void {
  const { ingresses, classes, services } = informers;
  const controller = controllers.ingresses;
  // One enqueue per key and event: enqueueing a key twice in one go, when an idle worker took it at the first,
  // reconciles it twice (kube/workqueue.ts hands an item over as it is added).
  const withRelated = (...versions: IngressObject[]): void => {
    const keys = new Map<Controller, Set<string>>();
    const add = (target: Controller, key: string): void => void (keys.get(target) ?? keys.set(target, new Set()).get(target)!).add(key);
    for (const ingress of versions) {
      add(controller, objectKey(ingress));
      const ref = templateRefOf(ingress);
      if (ref && !('invalid' in ref)) add(ref.kind === 'ApiDefinition' ? controllers.apis : controllers.oas, `${ref.namespace}/${ref.name}`);
      for (const claim of ingressRoutes(ingress, () => undefined).map(claimOf)) {
        for (const rival of ingresses.cache.byIndex(CLAIMS, claim)) add(controller, objectKey(rival));
      }
    }
    for (const [target, set] of keys) for (const key of set) target.enqueue(key);
  };
  ingresses.addHandlers({
    onAdd: (ingress) => withRelated(ingress),
    onUpdate: (old, ingress) => {
      if (old.metadata.generation === ingress.metadata.generation && sameMeta(old, ingress)) return; // our status write
      withRelated(old, ingress);
    },
    onDelete: (ingress) => withRelated(ingress),
  });
  const everyIngress = (): void => ingresses.cache.keys().forEach((key) => controller.enqueue(key));
  classes.addHandlers({ onAdd: everyIngress, onUpdate: everyIngress, onDelete: everyIngress });
  const usersOf = (service: ServiceObject): void =>
    ingresses.cache.byIndex(BACKEND_SERVICES, objectKey(service)).forEach((i) => controller.enqueue(objectKey(i)));
  services.addHandlers({ onAdd: usersOf, onUpdate: usersOf, onDelete: usersOf });

  const owner = (object: KubeObject): void => {
    const ref = ingressControllerRef(object);
    if (ref) controller.enqueue(`${object.metadata.namespace}/${ref.name}`);
  };
  const users = (kind: TemplateKind, object: KubeObject): void => {
    for (const ingress of ingresses.cache.byIndex(
      TEMPLATE,
      templateKey({ kind, namespace: object.metadata.namespace ?? 'default', name: object.metadata.name }),
    ))
      controller.enqueue(objectKey(ingress));
  };
  const api = (kind: TemplateKind) => {
    const both = (object: KubeObject): void => {
      owner(object);
      users(kind, object); // also when it stops being a template or goes: the Ingress reports it
    };
    return {
      onAdd: both,
      onDelete: both,
      // Status-only updates (the API controller's own writes, a template's list of Ingresses) wake nobody, except
      // the sync an Ingress waits on before it deletes what a path change left behind.
      onUpdate: (old: KubeObject & { status?: unknown }, object: KubeObject & { status?: unknown }) => {
        const changed = meaningful(old, object);
        if (changed || childMetaChanged(old, object) || syncedGeneration(old) !== syncedGeneration(object)) owner(object);
        if (changed || isTemplate(old) !== isTemplate(object)) users(kind, object);
      },
    };
  };
  owned.apis.addHandlers(api('ApiDefinition'));
  owned.oas.addHandlers(api('GwOasApiDefinition'));
  const configMap = (cm: ConfigMapObject): void => {
    owner(cm);
    for (const oas of owned.oas.cache.byIndex(CONFIG_MAP, objectKey(cm))) if (isTemplate(oas)) users('GwOasApiDefinition', oas);
  };
  owned.configMaps.addHandlers({ onAdd: configMap, onUpdate: (_old, cm) => configMap(cm), onDelete: configMap });
}

/** What the Ingress compares on the resources it made, beside their spec: its label and the owner references. */
function childMetaChanged(a: KubeObject, b: KubeObject): boolean {
  return (
    a.metadata.labels?.[INGRESS_LABEL] !== b.metadata.labels?.[INGRESS_LABEL] ||
    JSON.stringify(a.metadata.ownerReferences ?? []) !== JSON.stringify(b.metadata.ownerReferences ?? [])
  );
}

/** Annotations and deletion: what can change an Ingress's class, template or lifecycle without a new generation. */
function sameMeta(a: KubeObject, b: KubeObject): boolean {
  return (
    JSON.stringify(a.metadata.annotations ?? {}) === JSON.stringify(b.metadata.annotations ?? {}) &&
    a.metadata.deletionTimestamp === b.metadata.deletionTimestamp
  );
}
