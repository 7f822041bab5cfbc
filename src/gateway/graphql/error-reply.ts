// Answers of a GraphQL API that the gateway writes itself, in GraphQL's response format: refusals as
// `{"errors":[{"message", "locations"?, "path"?}]}` (Tyk's shape for invalid queries and field permissions)
// and results it computes from the schema (introspection), both application/json, through the response phase like
// every answer. Tyk's template errors (`{"error": ...}`: depth limit, introspection disabled) stay
// pipeline/error-reply.ts.
import type { ProxyContext } from '../pipeline/contract.ts';
import { GENERATOR } from '../pipeline/error-reply.ts';
import { respond } from '../pipeline/response-phase.ts';

export interface GraphqlErrorEntry {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
}

export function writeGraphqlErrors(
  ctx: ProxyContext,
  status: number,
  errors: readonly GraphqlErrorEntry[],
  hideGenerator: boolean,
  headers: Record<string, string> = {},
): true {
  const body = JSON.stringify({ errors: errors.map(entryOf) });
  write(ctx, status, body, hideGenerator, headers, 'error');
  return true;
}

/** A result the gateway computed (introspection from the API's schema): 200. */
export function writeGraphqlResult(ctx: ProxyContext, result: unknown, hideGenerator: boolean): true {
  write(ctx, 200, JSON.stringify(result), hideGenerator, {}, 'mock');
  return true;
}

/** An executor's result (graphql-js `execute`) as the gateway answers it: errors as entries, data when present. */
export function executionAnswer(result: { errors?: readonly GraphqlErrorEntry[] | undefined; data?: unknown }): {
  data?: unknown;
  errors?: GraphqlErrorEntry[];
} {
  return {
    ...(result.errors
      ? { errors: result.errors.map((e) => ({ message: e.message, ...(e.locations ? { locations: e.locations } : {}), ...(e.path ? { path: e.path } : {}) })) }
      : {}),
    ...('data' in result ? { data: result.data } : {}),
  };
}

function entryOf(error: GraphqlErrorEntry): GraphqlErrorEntry {
  return {
    message: error.message,
    ...(error.locations && error.locations.length > 0 ? { locations: error.locations.map(({ line, column }) => ({ line, column })) } : {}),
    ...(error.path ? { path: error.path } : {}),
  };
}

function write(ctx: ProxyContext, status: number, body: string, hideGenerator: boolean, extra: Record<string, string>, origin: 'error' | 'mock'): void {
  if (ctx.res.headersSent) {
    ctx.res.destroy();
    return;
  }
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extra };
  if (!hideGenerator) headers['x-generator'] = GENERATOR;
  respond(ctx.res, { status, headers, origin }, body);
}
