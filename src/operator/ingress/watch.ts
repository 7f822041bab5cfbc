// The Ingress controller's informers and the mapping from their events to Ingress keys:
//   Ingress            itself, and every Ingress sharing a host+path with it before or after (a conflict's loser
//                      takes over when the winner goes or moves)
//   IngressClass       every Ingress (which ones are ours may have changed; classes are few and change rarely)
//   Service            the Ingresses whose backends name it (named ports)
//   ApiDefinition      the Ingress controlling it (its sync state, or someone changed or deleted it)
import type { Controller } from '../../kube/controller.ts';
import type { Manager } from '../../kube/manager.ts';
import { objectKey, type KubeObject } from '../../kube/object.ts';
import type { Informer } from '../../kube/informer.ts';
import type { ApiDefinitionObject } from '../resources.ts';
import { BACKEND_SERVICES, CLAIMS, addIngressIndexes } from './ingress-indexes.ts';
import { IngressResources, type IngressClassObject, type IngressObject, type ServiceObject } from './kinds.ts';
import { claimOf, ingressRoutes } from './routes.ts';

export interface IngressInformers {
  ingresses: Informer<IngressObject>;
  classes: Informer<IngressClassObject>;
  services: Informer<ServiceObject>;
}

export function ingressInformers(manager: Manager, namespaces: string[], apis: Informer<ApiDefinitionObject>): IngressInformers {
  const informers = {
    ingresses: manager.informer<IngressObject>(IngressResources.ingress, { namespaces }),
    classes: manager.informer<IngressClassObject>(IngressResources.ingressClass),
    services: manager.informer<ServiceObject>(IngressResources.service, { namespaces }),
  };
  addIngressIndexes(informers.ingresses.cache, apis.cache);
  return informers;
}

export function watchIngresses(informers: IngressInformers, apis: Informer<ApiDefinitionObject>, controller: Controller): void {
  const { ingresses, classes, services } = informers;
  const withRivals = (ingress: IngressObject): void => {
    controller.enqueue(objectKey(ingress));
    for (const claim of ingressRoutes(ingress, () => undefined).map(claimOf)) {
      for (const rival of ingresses.cache.byIndex(CLAIMS, claim)) controller.enqueue(objectKey(rival));
    }
  };
  ingresses.addHandlers({
    onAdd: withRivals,
    onUpdate: (old, ingress) => {
      if (old.metadata.generation === ingress.metadata.generation && sameMeta(old, ingress)) return; // our status write
      withRivals(old);
      withRivals(ingress);
    },
    onDelete: withRivals,
  });
  const everyIngress = (): void => ingresses.cache.keys().forEach((key) => controller.enqueue(key));
  classes.addHandlers({ onAdd: everyIngress, onUpdate: everyIngress, onDelete: everyIngress });
  const usersOf = (service: ServiceObject): void => ingresses.cache.byIndex(BACKEND_SERVICES, objectKey(service)).forEach((i) => controller.enqueue(objectKey(i)));
  services.addHandlers({ onAdd: usersOf, onUpdate: usersOf, onDelete: usersOf });
  const owner = (api: ApiDefinitionObject): void => {
    for (const ref of api.metadata.ownerReferences ?? []) {
      if (ref.kind === 'Ingress' && ref.controller) controller.enqueue(`${api.metadata.namespace}/${ref.name}`);
    }
  };
  apis.addHandlers({ onAdd: owner, onUpdate: (_old, api) => owner(api), onDelete: owner });
}

/** Annotations, labels and deletion: what can change an Ingress's class or lifecycle without a new generation. */
function sameMeta(a: KubeObject, b: KubeObject): boolean {
  return JSON.stringify(a.metadata.annotations ?? {}) === JSON.stringify(b.metadata.annotations ?? {}) && a.metadata.deletionTimestamp === b.metadata.deletionTimestamp;
}
