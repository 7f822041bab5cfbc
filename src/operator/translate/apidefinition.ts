// ApiDefinition -> the Classic API definition the gateway stores. Pure: the same resource always gives the same
// payload (its hash decides whether anything is written).
//   - the cluster-only fields go: contextRef and the certificate Secret references
//   - api_id: spec.api_id, else the deterministic id of namespace/name; org_id: spec.org_id, else the context's
//   - jwt_default_policies written as <namespace>/<name> name SecurityPolicy resources and become their ids
// Certificates from Secrets are refused with a message (the gateway does not serve TLS from them yet) rather than
// silently dropped.
import type { ApiDefinitionSpec } from '../../api/crd/apidefinition.ts';
import type { Definition } from '../../mgmt/client.ts';
import { InvalidSpecError } from '../errors.ts';
import { idFor } from '../ids.ts';

const CLUSTER_ONLY = ['contextRef', 'certificate_secret_names', 'client_certificate_refs', 'upstream_certificate_refs', 'pinned_public_keys_refs'] as const;

export function apiDefinitionId(namespace: string | undefined, name: string, spec: ApiDefinitionSpec): string {
  return spec.api_id ?? idFor(namespace, name);
}

/** A policy named as <namespace>/<name> (a SecurityPolicy resource) becomes its id; anything else is an id already. */
export function policyIdOfReference(reference: string): string {
  const slash = reference.indexOf('/');
  return slash > 0 ? idFor(reference.slice(0, slash), reference.slice(slash + 1)) : reference;
}

export function apiDefinitionPayload(namespace: string | undefined, name: string, spec: ApiDefinitionSpec, org: string): Definition {
  for (const field of CLUSTER_ONLY.slice(1)) {
    const value = spec[field];
    if (value !== undefined && (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0)) {
      throw new InvalidSpecError(`spec.${field}: certificates from Secrets are not supported by this operator build yet`);
    }
  }
  const payload: Definition = Object.fromEntries(Object.entries(spec).filter(([key]) => !(CLUSTER_ONLY as readonly string[]).includes(key)));
  payload.api_id = apiDefinitionId(namespace, name, spec);
  payload.org_id = spec.org_id ?? org;
  if (spec.jwt_default_policies) payload.jwt_default_policies = spec.jwt_default_policies.map(policyIdOfReference);
  return payload;
}
