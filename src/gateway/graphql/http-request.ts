// A GraphQL request as GraphQL-over-HTTP sends it: a POST body `{"query", "operationName", "variables"}` (JSON), or
// GET query parameters `query`, `operationName` and `variables` (JSON text). Reads the shape only; the query text is
// analysed elsewhere (document-cache.ts). Batches (a JSON array of requests) are refused: one operation per request.
// JSON nested past the management API's limit (http/json-body.ts) is refused before parsing: what reads the
// variables afterwards recurses. Every refusal is a 400 with a message for the client's `errors[0].message`; never
// throws.
import { jsonDepthProblem } from '../../http/json-body.ts';

export interface GraphqlHttpRequest {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
}

export type ReadGraphqlRequest = { ok: true; request: GraphqlHttpRequest } | { ok: false; message: string };

export const EMPTY_REQUEST = 'the provided request is empty';

export function requestFromBody(body: Buffer): ReadGraphqlRequest {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, message: EMPTY_REQUEST };
  const tooDeep = jsonDepthProblem(text);
  if (tooDeep) return { ok: false, message: `the request body is not valid JSON: ${tooDeep}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (Array.isArray(value)) return { ok: false, message: 'batched operations are not accepted (batching limit: one operation per request)' };
  if (typeof value !== 'object' || value === null)
    return { ok: false, message: 'the request body must be a JSON object {"query", "operationName", "variables"}' };
  const fields = value as Record<string, unknown>;
  return checked(fields.query, fields.operationName, fields.variables);
}

/** `rawQuery` is the URL's query string, with or without its leading '?'. */
export function requestFromQueryString(rawQuery: string): ReadGraphqlRequest {
  const params = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery);
  const variablesText = params.get('variables');
  let variables: unknown;
  if (variablesText !== null && variablesText !== '') {
    const tooDeep = jsonDepthProblem(variablesText);
    if (tooDeep) return { ok: false, message: `the variables parameter is not valid JSON: ${tooDeep}` };
    try {
      variables = JSON.parse(variablesText);
    } catch (error) {
      return { ok: false, message: `the variables parameter is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return checked(params.get('query') ?? undefined, params.get('operationName') || undefined, variables);
}

function checked(query: unknown, operationName: unknown, variables: unknown): ReadGraphqlRequest {
  if (query === undefined || query === null || query === '') return { ok: false, message: EMPTY_REQUEST };
  if (typeof query !== 'string') return { ok: false, message: 'query must be a string' };
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return { ok: false, message: 'operationName must be a string' };
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables)))
    return { ok: false, message: 'variables must be a JSON object' };
  return {
    ok: true,
    request: {
      query,
      ...(typeof operationName === 'string' && operationName !== '' ? { operationName } : {}),
      ...(variables ? { variables: variables as Record<string, unknown> } : {}),
    },
  };
}
