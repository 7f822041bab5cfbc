// Which Ingresses this operator serves: the class annotation `kubernetes.io/ingress.class` equal to
// WATCH_INGRESS_CLASS (Tyk's rule; when present it decides alone, as for ingress-nginx), else
// `spec.ingressClassName` naming an IngressClass whose spec.controller is ours, else — neither set — an
// IngressClass of ours marked `ingressclass.kubernetes.io/is-default-class: "true"`. Pure: reads the caches given.
import { CLASS_ANNOTATION, DEFAULT_CLASS_ANNOTATION, INGRESS_CONTROLLER_NAME, type IngressClassObject, type IngressObject } from './kinds.ts';

export interface ClassLookup {
  get(name: string): IngressClassObject | undefined;
  list(): IngressClassObject[];
}

export function isOurIngress(ingress: IngressObject, watchedClass: string, classes: ClassLookup): boolean {
  const annotated = ingress.metadata.annotations?.[CLASS_ANNOTATION];
  if (annotated !== undefined) return annotated === watchedClass;
  const className = ingress.spec.ingressClassName;
  if (className) return classes.get(className)?.spec.controller === INGRESS_CONTROLLER_NAME;
  return classes.list().some((c) => c.spec.controller === INGRESS_CONTROLLER_NAME && c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true');
}
