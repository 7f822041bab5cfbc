// A key's GraphQL permissions for one API, merged from the key or its policies when the session is computed
// (apply-policies.ts), never per request: the depth limit (access_rights[api].limit.max_query_depth, else the
// session's max_query_depth), the allow-list (allowed_types, which wins) or block-list (restricted_types) of fields,
// and disable_introspection. Merge rules across policies: lists are unioned per type (as Tyk's
// MergeAllowedTypes/MergeRestrictedTypes); the depth limit is the highest, -1 (unlimited) beating all; introspection
// is disabled when any granting policy disables it.
import type { GraphqlTypeFields } from '../../domain/graphql.ts';

/** Type name -> its listed field names, or '*' for all of them. */
export type TypeFieldList = ReadonlyMap<string, ReadonlySet<string> | '*'>;

export interface GraphqlAccess {
  /** > 0 limits the depth; 0 or -1 (or absent everywhere) means unlimited, as in Tyk. */
  maxQueryDepth: number;
  allowedTypes?: TypeFieldList;
  restrictedTypes?: TypeFieldList;
  disableIntrospection: boolean;
}

/** The access-right fields this reads, as a key and a policy both carry them. */
export interface GraphqlRightSource {
  allowed_types?: GraphqlTypeFields[] | undefined;
  restricted_types?: GraphqlTypeFields[] | undefined;
  disable_introspection?: boolean | undefined;
  limit?: { max_query_depth?: number | undefined } | undefined;
}

/** The highest depth limit; -1 (unlimited) wins. Undefined when none is set. */
export function mergeDepthLimits(limits: readonly (number | undefined)[]): number | undefined {
  const set = limits.filter((limit): limit is number => limit !== undefined);
  if (set.length === 0) return undefined;
  return set.some((limit) => limit < 0) ? -1 : Math.max(...set);
}

/** The merged permissions of the rights one API is granted by (one right without policies). */
export function graphqlAccessOf(rights: readonly GraphqlRightSource[], sessionDepth: number | undefined): GraphqlAccess {
  const apiDepth = mergeDepthLimits(rights.map((right) => right.limit?.max_query_depth));
  const allowed = unionTypes(rights.map((right) => right.allowed_types));
  const restricted = unionTypes(rights.map((right) => right.restricted_types));
  return {
    maxQueryDepth: apiDepth ?? sessionDepth ?? -1,
    ...(allowed ? { allowedTypes: allowed } : {}),
    ...(restricted ? { restrictedTypes: restricted } : {}),
    disableIntrospection: rights.some((right) => right.disable_introspection === true),
  };
}

/** The lists back in their wire form (GET /gw/keys shows the merged session). */
export function typeFieldsOf(list: TypeFieldList | undefined): GraphqlTypeFields[] | undefined {
  if (!list) return undefined;
  return [...list].map(([name, fields]) => ({ name, fields: fields === '*' ? ['*'] : [...fields] }));
}

function unionTypes(lists: readonly (GraphqlTypeFields[] | undefined)[]): TypeFieldList | undefined {
  const present = lists.filter((list): list is GraphqlTypeFields[] => list !== undefined && list.length > 0);
  if (present.length === 0) return undefined;
  const merged = new Map<string, Set<string> | '*'>();
  for (const entry of present.flat()) {
    const before = merged.get(entry.name);
    if (before === '*' || entry.fields.includes('*')) {
      merged.set(entry.name, '*');
      continue;
    }
    const fields = before ?? new Set<string>();
    for (const field of entry.fields) fields.add(field);
    merged.set(entry.name, fields);
  }
  return merged;
}
