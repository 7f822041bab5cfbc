// SecurityPolicy -> the policy object the gateway stores. access_rights_array names API resources; `resolve`
// turns each into the API's id and name (or throws WaitingError while it is not synced). Explicit access_rights
// by id are kept and merged in. Pure apart from `resolve`.
import type { SecurityPolicySpec } from '../../domain/crd/securitypolicy.ts';
import type { Definition } from '../../mgmt/client.ts';
import { idFor } from '../sync/ids.ts';

export interface ResolvedApi {
  apiId: string;
  apiName: string;
}

export type ApiReferenceKind = 'ApiDefinition' | 'GwOasApiDefinition' | 'GwStreamsApiDefinition';

export interface ApiReference {
  kind: ApiReferenceKind;
  namespace: string;
  name: string;
}

export function policyId(namespace: string | undefined, name: string, spec: SecurityPolicySpec): string {
  return spec.id ?? idFor(namespace, name);
}

/** The API resources a policy names, with their kind and namespace defaulted. */
export function apiReferences(namespace: string | undefined, spec: SecurityPolicySpec): ApiReference[] {
  return (spec.access_rights_array ?? []).map((ref) => ({
    kind: ref.kind ?? 'ApiDefinition',
    namespace: ref.namespace || namespace || 'default',
    name: ref.name,
  }));
}

export function securityPolicyPayload(
  namespace: string | undefined,
  name: string,
  spec: SecurityPolicySpec,
  org: string,
  resolve: (reference: ApiReference) => ResolvedApi,
): Definition {
  const { access_rights_array: array, contextRef: _contextRef, id: _id, access_rights: explicit, ...fields } = spec;
  const accessRights: Record<string, unknown> = { ...explicit };
  const references = apiReferences(namespace, spec);
  (array ?? []).forEach((entry, index) => {
    const api = resolve(references[index]!);
    accessRights[api.apiId] = {
      api_id: api.apiId,
      api_name: api.apiName,
      versions: entry.versions ?? [],
      ...(entry.allowed_urls ? { allowed_urls: entry.allowed_urls } : {}),
      ...(entry.limit ? { limit: entry.limit } : {}),
      ...(entry.allowed_types ? { allowed_types: entry.allowed_types } : {}),
      ...(entry.restricted_types ? { restricted_types: entry.restricted_types } : {}),
      ...(entry.disable_introspection !== undefined ? { disable_introspection: entry.disable_introspection } : {}),
    };
  });
  return { ...fields, id: policyId(namespace, name, spec), org_id: spec.org_id ?? org, access_rights: accessRights };
}
