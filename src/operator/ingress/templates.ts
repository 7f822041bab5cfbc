// Ingress templates (Tyk's, under gw.gw.io): an ApiDefinition or GwOasApiDefinition labelled
// `gw.gw.io/template: "true"` is not synced to a gateway; an Ingress annotated `gw.gw.io/template: <name>` (same
// namespace; `gw.gw.io/template-kind: ApiDefinition | GwOasApiDefinition`, default ApiDefinition) gets, per route,
// a copy of it with the listen path, domain and upstream filled in. Pure: how a template is found, recognised and
// applied; the controllers decide when.
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { IngressObject } from './kinds.ts';

export const TEMPLATE_LABEL = 'gw.gw.io/template';
export const TEMPLATE_ANNOTATION = 'gw.gw.io/template';
export const TEMPLATE_KIND_ANNOTATION = 'gw.gw.io/template-kind';

export type TemplateKind = 'ApiDefinition' | 'GwOasApiDefinition';

export interface TemplateRef {
  kind: TemplateKind;
  namespace: string;
  name: string;
}

/** What a route fills into a template. */
export interface RouteFill {
  name: string;
  host: string;
  listenPath: string;
  exact: boolean;
  upstream: string;
  /** The id of the host's uploaded certificate (spec.tls). */
  certificateId?: string | undefined;
}

export function isTemplate(object: KubeObject): boolean {
  return object.metadata.labels?.[TEMPLATE_LABEL] === 'true';
}

/** The template an Ingress names; a template-kind other than the two gives `invalid` (an Event says so). */
export function templateRefOf(ingress: IngressObject): TemplateRef | { invalid: string } | undefined {
  const name = ingress.metadata.annotations?.[TEMPLATE_ANNOTATION];
  if (!name) return undefined;
  const kind = ingress.metadata.annotations?.[TEMPLATE_KIND_ANNOTATION] ?? 'ApiDefinition';
  if (kind !== 'ApiDefinition' && kind !== 'GwOasApiDefinition')
    return { invalid: `annotation ${TEMPLATE_KIND_ANNOTATION}: ${kind} is neither ApiDefinition nor GwOasApiDefinition` };
  return { kind, namespace: ingress.metadata.namespace ?? 'default', name };
}

/** Index value of a template: `<kind>:<namespace>/<name>`. */
export function templateKey(ref: TemplateRef): string {
  return `${ref.kind}:${ref.namespace}/${ref.name}`;
}

/**
 * The gateway domain of an Ingress host. A Kubernetes wildcard host `*.example.com` matches exactly one DNS label
 * (foo.example.com, never a.b.example.com nor example.com): Tyk's host variable `{?:[^.]+}.example.com`, which
 * the gateway matches that way, where its own `*.example.com` would match one or more labels.
 */
export function gatewayDomain(host: string): string {
  return host.startsWith('*.') ? `{?:[^.]+}${host.slice(1)}` : host;
}

/** The built-in template (no annotation): a keyless API, as Tyk's. */
export const KEYLESS: ApiDefinitionSpec = { name: '', active: true, use_keyless: true, proxy: {} };

/** A Classic template filled for one route: its own name, never the template's api_id (each route is its own API). */
export function fillClassicTemplate(template: ApiDefinitionSpec, fill: RouteFill): ApiDefinitionSpec {
  const copy = structuredClone(template) as ApiDefinitionSpec & { api_id?: string; domain?: string };
  delete copy.api_id;
  delete copy.domain;
  return {
    ...copy,
    name: fill.name,
    ...(fill.host ? { domain: gatewayDomain(fill.host) } : {}),
    ...(fill.certificateId ? { certificates: [fill.certificateId] } : {}),
    proxy: {
      ...copy.proxy,
      listen_path: fill.listenPath,
      target_url: fill.upstream,
      strip_listen_path: copy.proxy?.strip_listen_path ?? false,
      ...(fill.exact ? { listen_path_exact: true } : {}),
    },
  };
}

/** An OAS template's document filled for one route (x-gw-api-gateway: name, listen path and its exactness, custom domain, upstream). */
export function fillOasTemplate(document: Record<string, unknown>, fill: RouteFill): Record<string, unknown> {
  const copy = structuredClone(document);
  const ext = (copy['x-gw-api-gateway'] ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const info: Record<string, unknown> = { ...ext.info, name: fill.name };
  delete info.id;
  const server = { ...ext.server } as Record<string, unknown>;
  const { exact: _templateExact, ...listenPath } = (server.listenPath ?? {}) as { strip?: boolean; exact?: boolean };
  server.listenPath = { ...listenPath, value: fill.listenPath, strip: listenPath.strip ?? false, ...(fill.exact ? { exact: true } : {}) };
  if (fill.host) server.customDomain = { enabled: true, name: gatewayDomain(fill.host), ...(fill.certificateId ? { certificates: [fill.certificateId] } : {}) };
  else delete server.customDomain;
  copy['x-gw-api-gateway'] = { ...ext, info, server, upstream: { ...ext.upstream, url: fill.upstream } };
  return copy;
}
