// The decisions on one analysed GraphQL request, in the order the gateway applies them: which operation runs
// (operationName), whether its method allows it (no mutation over GET, as GraphQL-over-HTTP says), the API-wide
// limits (query size, aliases: graphql.* in the gateway configuration), then the key's permissions for this API
// (session/graphql-access.ts): introspection, depth, allowed / restricted fields. Each refusal says its status and
// its shape: `graphql` ({"errors": [...]}) or Tyk's `template` ({"error": ...}: depth, introspection).
// Pure: reads the analysis and the settings, writes nothing.
import { Messages } from '../pipeline/error-reply.ts';
import type { GraphqlAccess, TypeFieldList } from '../session/graphql-access.ts';
import type { DocumentAnalysis, OperationFacts } from './document-analysis.ts';

export interface Refusal {
  shape: 'graphql' | 'template';
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface GraphqlLimits {
  max_query_bytes: number;
  max_aliases: number;
}

type Analysed = Extract<DocumentAnalysis, { ok: true }>;

/** The operation to run, or why none can: graphql-js's own wording for these two cases. */
export function selectOperation(analysis: Analysed, operationName: string | undefined): OperationFacts | Refusal {
  const { operations } = analysis;
  if (operationName !== undefined) {
    return operations.get(operationName) ?? { shape: 'graphql', status: 400, message: `Unknown operation named "${operationName}".` };
  }
  if (operations.size === 1) return operations.values().next().value!;
  return { shape: 'graphql', status: 400, message: 'Must provide operation name if query contains multiple operations.' };
}

export function methodRefusal(facts: OperationFacts, method: string): Refusal | undefined {
  if (method !== 'GET' || facts.kind === 'query') return undefined;
  return { shape: 'graphql', status: 405, message: `${facts.kind} operations are accepted over POST only`, headers: { allow: 'POST' } };
}

export function querySizeRefusal(queryBytes: number, limits: GraphqlLimits): Refusal | undefined {
  if (queryBytes <= limits.max_query_bytes) return undefined;
  return { shape: 'graphql', status: 413, message: `the query is ${queryBytes} bytes, over the limit of ${limits.max_query_bytes} (graphql.max_query_bytes)` };
}

export function aliasRefusal(facts: OperationFacts, limits: GraphqlLimits): Refusal | undefined {
  if (facts.aliases <= limits.max_aliases) return undefined;
  return {
    shape: 'graphql',
    status: 400,
    message: `the operation uses ${facts.aliases} aliases, over the limit of ${limits.max_aliases} (graphql.max_aliases)`,
  };
}

/**
 * The key's permissions (undefined access: a keyless API, only the API's own introspection switch applies).
 * Introspection is exempt from the depth limit and the field lists, as in Tyk.
 */
export function accessRefusal(facts: OperationFacts, access: GraphqlAccess | undefined, apiIntrospectionDisabled: boolean): Refusal | undefined {
  if (facts.introspects && (apiIntrospectionDisabled || access?.disableIntrospection)) {
    return { shape: 'template', status: 403, message: Messages.graphqlIntrospectionDisabled };
  }
  if (!access) return undefined;
  if (access.maxQueryDepth > 0 && facts.depth > access.maxQueryDepth) return { shape: 'template', status: 403, message: Messages.graphqlDepthExceeded };
  const denied = facts.fields.find((selected) => !fieldAllowed(selected.type, selected.field, access));
  if (denied) return { shape: 'graphql', status: 400, message: `field: ${denied.field} is restricted on type: ${denied.type}` };
  return undefined;
}

/** allowed_types, when present, is the whole allow-list; otherwise restricted_types blocks what it lists. */
function fieldAllowed(type: string, field: string, access: GraphqlAccess): boolean {
  if (access.allowedTypes) return listed(access.allowedTypes, type, field);
  if (access.restrictedTypes) return !listed(access.restrictedTypes, type, field);
  return true;
}

function listed(list: TypeFieldList, type: string, field: string): boolean {
  const fields = list.get(type);
  return fields === '*' || (fields !== undefined && fields.has(field));
}
