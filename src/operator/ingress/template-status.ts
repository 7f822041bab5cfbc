// The status of an Ingress template resource: `ingressTemplate: true` (the INGRESSTEMPLATE column) and the
// Ingresses (namespace/name, sorted) whose gw.gw.io/template annotation names it.
import type { KubeObject } from '../../kube/object.ts';
import { isTemplate, type TemplateKind } from './templates.ts';

/** The Ingresses naming a template, as namespace/name. */
export type TemplateUsers = (kind: TemplateKind, namespace: string, name: string) => string[];

export function templateStatusOf(kind: TemplateKind, object: KubeObject, users: TemplateUsers): Record<string, unknown> | undefined {
  if (!isTemplate(object)) return undefined;
  return { ingressTemplate: true, ingresses: users(kind, object.metadata.namespace ?? 'default', object.metadata.name).sort() };
}
