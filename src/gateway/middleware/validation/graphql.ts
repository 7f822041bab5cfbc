// Proxy-only GraphQL APIs (Classic graphql.enabled, definition/graphql.ts): every request is read as a GraphQL
// request (POST JSON body, read once and kept for the upstream, at most graphql.max_body_bytes; or GET parameters),
// its query analysed against the API's schema (parsed and validated once per query text: graphql/document-cache.ts),
// and refused before the upstream sees it when it is invalid, too large, too aliased, or beyond what the key may
// do (graphql/operation-rules.ts). Introspection-only operations are answered from the schema by the gateway, as
// Tyk does. What passes is forwarded unchanged. OPTIONS passes through (CORS preflights of proxy-only APIs).
// A WebSocket upgrade (subscriptions) passes to the tunnel (proxy/upgrade-tunnel.ts) when it asks for one of the
// GraphQL subprotocols, graphql-transport-ws or graphql-ws; else 400, as Tyk answers.
// Supergraph APIs (spec.supergraph) pass the same checks, then the gateway executes the operation across the
// subgraphs itself (graphql/supergraph-executor.ts) instead of forwarding it. UDG APIs (spec.udg) likewise, from
// their data sources (graphql/udg-executor.ts), once the operation is within graphql.udg_max_depth.
// Never logs a query or its variables.
import { executeSync } from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import type { GraphqlSpec } from '../../definition/graphql-spec.ts';
import { DocumentCache } from '../../graphql/document-cache.ts';
import { writeGraphqlErrors, writeGraphqlResult } from '../../graphql/error-reply.ts';
import { supergraphExecutor } from '../../graphql/supergraph-executor.ts';
import { udgExecutor } from '../../graphql/udg-executor.ts';
import { internalCaller } from '../../looping/internal-request.ts';
import { requestFromBody, requestFromQueryString, type ReadGraphqlRequest } from '../../graphql/http-request.ts';
import { accessRefusal, aliasRefusal, methodRefusal, querySizeRefusal, selectOperation, type Refusal } from '../../graphql/operation-rules.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import { withRequestBody } from '../../pipeline/request-body.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

export function graphqlRequests(spec: GraphqlSpec, services: PipelineServices): Step {
  const limits = services.config.graphql;
  const hideGenerator = services.config.hide_generator_header;
  const documents = new DocumentCache(spec.schema, limits.document_cache_entries);
  const supergraph = spec.supergraph ? supergraphExecutor(spec.supergraph, limits.subgraph_timeout_ms) : undefined;
  const internal = spec.udg ? internalCaller(services) : undefined;
  const udgLimits = { maxCalls: limits.udg_max_data_source_calls, timeoutMs: limits.subgraph_timeout_ms, ...(internal ? { internal } : {}) };
  const udg = spec.udg ? udgExecutor(spec.schema, spec.udg, udgLimits) : undefined;

  const refuse = (ctx: ProxyContext, refusal: Refusal): true => {
    if (refusal.shape === 'template') {
      writeError(ctx.req, ctx.res, refusal.status, refusal.message, { hideGenerator, ...(refusal.headers ? { headers: refusal.headers } : {}) });
      return true;
    }
    return writeGraphqlErrors(ctx, refusal.status, [{ message: refusal.message }], hideGenerator, refusal.headers);
  };

  const decide = (ctx: ProxyContext, read: ReadGraphqlRequest): boolean | Promise<boolean> => {
    if (!read.ok) return writeGraphqlErrors(ctx, 400, [{ message: read.message }], hideGenerator);
    const { query, operationName, variables } = read.request;
    const tooLarge = querySizeRefusal(Buffer.byteLength(query), limits);
    if (tooLarge) return refuse(ctx, tooLarge);
    const analysis = documents.analysis(query);
    if (!analysis.ok) return writeGraphqlErrors(ctx, 400, analysis.errors, hideGenerator);
    const facts = selectOperation(analysis, operationName);
    if ('shape' in facts) return refuse(ctx, facts);
    const refusal = methodRefusal(facts, ctx.method) ?? aliasRefusal(facts, limits);
    if (refusal) return refuse(ctx, refusal);
    const coerced = getVariableValues(spec.schema, facts.node.variableDefinitions ?? [], variables ?? {}, { maxErrors: 10 });
    if (coerced.errors) return writeGraphqlErrors(ctx, 400, coerced.errors, hideGenerator);
    const denied = accessRefusal(facts, ctx.access?.graphql, spec.introspectionDisabled);
    if (denied) return refuse(ctx, denied);
    if (facts.introspectionOnly) {
      const result = executeSync({
        schema: spec.schema,
        document: analysis.document,
        ...(operationName ? { operationName } : {}),
        variableValues: coerced.coerced,
      });
      return writeGraphqlResult(ctx, result, hideGenerator);
    }
    if (supergraph)
      return supergraph.execute(analysis.document, coerced.coerced, operationName).then((result) => writeGraphqlResult(ctx, result, hideGenerator));
    if (udg) {
      if (facts.depth > limits.udg_max_depth)
        return writeGraphqlErrors(ctx, 400, [{ message: `the query is deeper than ${limits.udg_max_depth} levels (graphql.udg_max_depth)` }], hideGenerator);
      return udg
        .execute(analysis.document, coerced.coerced, operationName, ctx.req.headers, ctx)
        .then((result) => writeGraphqlResult(ctx, result, hideGenerator));
    }
    return false;
  };

  return (ctx) => {
    if (ctx.upgrade) {
      // Subscriptions across subgraphs are not planned here: never tunnel a supergraph API's upgrade to target_url.
      if (supergraph || udg)
        return writeGraphqlErrors(ctx, 400, [{ message: `subscriptions are not served for ${udg ? 'UDG' : 'supergraph'} APIs` }], hideGenerator);
      if (offeredProtocols(ctx.req.headers['sec-websocket-protocol']).some((p) => GRAPHQL_WS_PROTOCOLS.has(p))) return false;
      writeError(ctx.req, ctx.res, 400, Messages.graphqlWebsocketProtocol, { hideGenerator });
      return true;
    }
    if (ctx.method === 'POST') return withRequestBody(ctx, limits.max_body_bytes, hideGenerator, (body) => decide(ctx, requestFromBody(body)));
    if (ctx.method === 'GET') return decide(ctx, requestFromQueryString(ctx.query));
    if (ctx.method === 'OPTIONS') return false;
    return writeGraphqlErrors(ctx, 405, [{ message: 'GraphQL requests are sent with GET or POST' }], hideGenerator, { allow: 'GET, POST' });
  };
}

const GRAPHQL_WS_PROTOCOLS = new Set(['graphql-transport-ws', 'graphql-ws']);

function offeredProtocols(header: string | undefined): string[] {
  return header ? header.split(',').map((p) => p.trim()) : [];
}

export const graphqlStep: StepDescriptor = {
  name: 'graphql',
  enabledFor: (api) => api.graphql !== undefined,
  build: (api, services) => ({ request: graphqlRequests(api.graphql!, services) }),
};
