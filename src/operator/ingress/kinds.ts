// The Kubernetes kinds the Ingress controller reads (networking.k8s.io/v1 Ingress and IngressClass, core Service),
// the shapes of their objects as far as it reads them, and the names it owns on them: our IngressClass controller
// name and the labels it puts on the ApiDefinitions it makes. Types, plus the one test of which Ingress controls an
// object (its ownerReference), shared by the indexes, the event handlers and the reconciler.
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';

export const IngressResources = {
  ingress: { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', kind: 'Ingress', namespaced: true },
  ingressClass: { group: 'networking.k8s.io', version: 'v1', plural: 'ingressclasses', kind: 'IngressClass', namespaced: false },
  service: { group: '', version: 'v1', plural: 'services', kind: 'Service', namespaced: true },
} as const satisfies Record<string, ResourceType>;

/** spec.controller of the IngressClasses this operator serves. */
export const INGRESS_CONTROLLER_NAME = 'gw.gw.io/ingress-controller';
export const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
export const DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';
/** On every ApiDefinition made from an Ingress: the Ingress's name (its namespace is the ApiDefinition's). */
export const INGRESS_LABEL = 'gw.gw.io/ingress';

export interface ServiceBackend {
  name: string;
  port?: { number?: number; name?: string };
}

export interface IngressBackend {
  service?: ServiceBackend;
  resource?: { kind: string; name: string; apiGroup?: string };
}

export type PathType = 'Prefix' | 'Exact' | 'ImplementationSpecific';

type OwnerReference = NonNullable<KubeObject['metadata']['ownerReferences']>[number];

/** The Ingress controlling an object: its ownerReference of kind Ingress with controller: true (at most one). */
export function ingressControllerRef(object: KubeObject): OwnerReference | undefined {
  return object.metadata.ownerReferences?.find((ref) => ref.kind === 'Ingress' && ref.controller === true);
}

export interface IngressPath {
  path?: string;
  pathType: PathType;
  backend: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths: IngressPath[] };
}

export type IngressObject = KubeObject & {
  spec: {
    ingressClassName?: string;
    defaultBackend?: IngressBackend;
    rules?: IngressRule[];
    tls?: { hosts?: string[]; secretName?: string }[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
};

export type IngressClassObject = KubeObject & { spec: { controller?: string } };

export type ServiceObject = KubeObject & { spec: { ports?: { name?: string; port: number; targetPort?: number | string }[] } };
