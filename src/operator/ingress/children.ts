// The resources serving one route of an Ingress, named childName(ingress, route) in the Ingress's namespace,
// labelled gw.gw.io/ingress=<ingress> and controlled by it (ownerReference, so the garbage collector deletes them
// with it): from a Classic template an ApiDefinition; from an OAS template a ConfigMap holding the filled document
// (key oas.json) and a GwOasApiDefinition reading it, in that order; for an ACME solver path an ApiDefinition from
// acme.ts whatever the template. Pure.
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { OasApiDefinitionObject } from '../cluster/resources.ts';
import { GROUP, VERSION } from '../../domain/crd/meta.ts';
import { INGRESS_LABEL, type IngressObject } from './kinds.ts';
import { childName, type ResolvedRoute } from './routes.ts';
import { acmeSolverTemplate } from './acme.ts';
import { fillClassicTemplate, fillOasTemplate, type RouteFill } from './templates.ts';

export type ChildKind = 'configMap' | 'api' | 'oas';

export type TemplateSource =
  { kind: 'ApiDefinition'; spec: ApiDefinitionSpec } | { kind: 'GwOasApiDefinition'; spec: OasApiDefinitionObject['spec']; document: Record<string, unknown> };

export const OAS_KEY = 'oas.json';

export function childObjects(
  ingress: IngressObject,
  route: ResolvedRoute,
  template: TemplateSource,
  certificateId?: string,
): { kind: ChildKind; object: KubeObject & { spec?: unknown; data?: unknown } }[] {
  const namespace = ingress.metadata.namespace ?? 'default';
  const name = childName(ingress.metadata.name, route);
  const fill: RouteFill = {
    name: `${namespace}-${name}`,
    host: route.host,
    listenPath: route.listenPath,
    exact: route.exact,
    upstream: route.upstream!,
    certificateId,
  };
  const metadata = {
    name,
    namespace,
    labels: { [INGRESS_LABEL]: ingress.metadata.name },
    ownerReferences: [{ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: ingress.metadata.name, uid: ingress.metadata.uid ?? '', controller: true }],
  };
  const gw = `${GROUP}/${VERSION}`;
  if (route.acme || template.kind === 'ApiDefinition') {
    const spec = route.acme ? acmeSolverTemplate(template.spec.contextRef) : (template.spec as ApiDefinitionSpec);
    return [{ kind: 'api', object: { apiVersion: gw, kind: 'ApiDefinition', metadata, spec: fillClassicTemplate(spec, fill) } }];
  }
  const { contextRef, categories } = template.spec;
  return [
    {
      kind: 'configMap',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { [OAS_KEY]: JSON.stringify(fillOasTemplate(template.document, fill)) } },
    },
    {
      kind: 'oas',
      object: {
        apiVersion: gw,
        kind: 'GwOasApiDefinition',
        metadata,
        spec: { gwOAS: { configmapRef: { name, keyName: OAS_KEY } }, ...(contextRef ? { contextRef } : {}), ...(categories ? { categories } : {}) },
      },
    },
  ];
}
