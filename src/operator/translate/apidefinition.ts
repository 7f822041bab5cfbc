// ApiDefinition -> the Classic API definition the gateway stores. Pure: the same resource and the same resolved
// references always give the same payload (its hash decides whether anything is written).
//   - the cluster-only fields go: contextRef and the certificate Secret references
//   - api_id: spec.api_id, else the deterministic id of namespace/name; org_id: spec.org_id, else the context's
//   - certificates from Secrets (resolved beforehand by the controller: certificate-secrets.ts) join the ids named
//     directly: certificate_secret_names -> certificates (every Secret; Tyk used only the first),
//     client_certificate_refs -> client_certificates, upstream_certificate_refs -> upstream_certificates[host],
//     pinned_public_keys_refs -> pinned_public_keys[host] (a host in both the map and the refs: the Secret wins,
//     as with Tyk)
//   - jwt_default_policies written as <namespace>/<name> name SecurityPolicy resources and become their ids
//   - rewrite_to_internal / proxy.target_internal without a namespace get the resource's (internal-loops.ts)
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { Definition } from '../../mgmt/client.ts';
import type { SecretReference } from '../sync/certificate-secrets.ts';
import { idFor } from '../sync/ids.ts';
import { withLoopNamespaces } from './internal-loops.ts';

const CLUSTER_ONLY = ['contextRef', 'certificate_secret_names', 'client_certificate_refs', 'upstream_certificate_refs', 'pinned_public_keys_refs'] as const;

/** How the controller resolved what the spec names in the cluster. */
export interface ResolvedReferences {
  /** The certificate id of a Secret the spec names (certificateSecretReferences, all resolved beforehand). */
  certificate(secretName: string): string;
  /** The id of the SecurityPolicy <namespace>/<name> in jwt_default_policies; default: its deterministic id. */
  policy?(namespace: string, name: string): string;
}

/** A policy named as <namespace>/<name> (a SecurityPolicy resource); undefined: the value is a policy id already. */
export function policyResourceOf(reference: string): { namespace: string; name: string } | undefined {
  const slash = reference.indexOf('/');
  return slash > 0 && slash < reference.length - 1 ? { namespace: reference.slice(0, slash), name: reference.slice(slash + 1) } : undefined;
}

export function apiDefinitionId(namespace: string | undefined, name: string, spec: ApiDefinitionSpec): string {
  return spec.api_id ?? idFor(namespace, name);
}

/** Every Secret the spec names, with the field naming it (in the order they are resolved and reported). */
export function certificateSecretReferences(spec: ApiDefinitionSpec): SecretReference[] {
  return [
    ...(spec.certificate_secret_names ?? []).map((name, i) => ({ name, field: `spec.certificate_secret_names[${i}]` })),
    ...(spec.client_certificate_refs ?? []).map((name, i) => ({ name, field: `spec.client_certificate_refs[${i}]` })),
    ...Object.entries(spec.upstream_certificate_refs ?? {}).map(([host, name]) => ({ name, field: `spec.upstream_certificate_refs[${host}]` })),
    ...Object.entries(spec.pinned_public_keys_refs ?? {}).map(([host, name]) => ({ name, field: `spec.pinned_public_keys_refs[${host}]` })),
  ];
}

/** The SecurityPolicy resources jwt_default_policies names, as <namespace>/<name>. */
export function jwtPolicyResources(spec: ApiDefinitionSpec): string[] {
  return (spec.jwt_default_policies ?? []).flatMap((reference) => {
    const resource = policyResourceOf(reference);
    return resource ? [`${resource.namespace}/${resource.name}`] : [];
  });
}

const NO_SECRETS: ResolvedReferences = {
  certificate: (secretName) => {
    throw new Error(`Secret ${secretName} was not resolved`);
  },
};

export function apiDefinitionPayload(
  namespace: string | undefined,
  name: string,
  spec: ApiDefinitionSpec,
  org: string,
  resolved: ResolvedReferences = NO_SECRETS,
): Definition {
  const payload: Definition = withLoopNamespaces(
    Object.fromEntries(Object.entries(spec).filter(([key]) => !(CLUSTER_ONLY as readonly string[]).includes(key))),
    namespace,
  );
  if (spec.graphql?.graph_ref !== undefined) {
    const { graph_ref: _graphRef, ...graphql } = spec.graphql; // cluster-only, as spec.graph_ref
    payload.graphql = graphql;
  }
  payload.api_id = apiDefinitionId(namespace, name, spec);
  payload.org_id = spec.org_id ?? org;
  const ids = (names: string[] | undefined): string[] => (names ?? []).map((secret) => resolved.certificate(secret));
  const joined = (direct: string[] | undefined, secrets: string[] | undefined): string[] => [...new Set([...(direct ?? []), ...ids(secrets)])];
  const byHost = (direct: Record<string, string> | undefined, secrets: Record<string, string> | undefined): Record<string, string> => ({
    ...direct,
    ...Object.fromEntries(Object.entries(secrets ?? {}).map(([host, secret]) => [host, resolved.certificate(secret)])),
  });
  if (spec.certificate_secret_names?.length) payload.certificates = joined(spec.certificates, spec.certificate_secret_names);
  if (spec.client_certificate_refs?.length) payload.client_certificates = joined(spec.client_certificates, spec.client_certificate_refs);
  if (spec.upstream_certificate_refs && Object.keys(spec.upstream_certificate_refs).length > 0)
    payload.upstream_certificates = byHost(spec.upstream_certificates, spec.upstream_certificate_refs);
  if (spec.pinned_public_keys_refs && Object.keys(spec.pinned_public_keys_refs).length > 0)
    payload.pinned_public_keys = byHost(spec.pinned_public_keys, spec.pinned_public_keys_refs);
  if (spec.jwt_default_policies) {
    payload.jwt_default_policies = spec.jwt_default_policies.map((reference) => {
      const resource = policyResourceOf(reference);
      if (!resource) return reference;
      return resolved.policy ? resolved.policy(resource.namespace, resource.name) : idFor(resource.namespace, resource.name);
    });
  }
  return payload;
}
