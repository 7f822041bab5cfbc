// Gateway options bounding what clients may send and how long they may take: connection timeouts and limits, body
// sizes, GraphQL limits, body transforms, the response cache's sizes (a part of the gateway's configuration,
// config.ts; the keys keep their place in --config-reference).
import { z } from 'zod';

export const requestLimitOptions = {
  client_connections: z
    .object({
      headers_timeout_seconds: z
        .number()
        .positive()
        .default(10)
        .describe('Seconds a client has to send the complete request headers; a slower one gets 408 and is disconnected.'),
      request_timeout_seconds: z
        .number()
        .positive()
        .default(120)
        .describe(
          'Seconds a client has to send the whole request, headers and body (408 and disconnect after). Raise it for large uploads over slow links; at least headers_timeout_seconds.',
        ),
      keep_alive_timeout_seconds: z
        .number()
        .positive()
        .default(65)
        .describe(
          'Seconds an idle keep-alive connection is kept; longer than the idle timeout of a load balancer in front (commonly 60 s), so the gateway never closes a connection the balancer is about to reuse.',
        ),
      max_connections: z
        .int()
        .positive()
        .default(10_000)
        .describe(
          'Client connections the proxy port holds at once (per process); a connection beyond it is closed as soon as it is accepted. With control_api_port set, management, health and metrics connections are not counted.',
        ),
    })
    .prefault({})
    .refine((limits) => limits.headers_timeout_seconds <= limits.request_timeout_seconds, {
      message: 'headers_timeout_seconds must not exceed request_timeout_seconds',
      path: ['headers_timeout_seconds'],
    })
    .describe('Timeouts and the connection limit for clients: what a reverse proxy facing the internet needs against slow or idle clients.'),
  proxy_default_timeout: z.number().positive().default(30).describe('Seconds an upstream has to answer when no enforced timeout applies (504 after).'),
  control_api_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('Largest management API request body; larger ones get 413.'),
  max_request_body_size: z
    .int()
    .min(0)
    .default(0)
    .describe(
      "Largest request body in bytes the gateway forwards for any API (Tyk's http_server_options.max_request_body_size); larger ones get 413 `Request is too large`. 0: no gateway-wide limit (APIs may still set global_size_limit and size_limits).",
    ),
  validate_json_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('Largest request body JSON Schema validation (validate_json, validateRequest) reads; larger ones get 413 `Request is too large`.'),
  graphql: z
    .object({
      max_body_bytes: z
        .int()
        .positive()
        .default(1024 * 1024)
        .describe('Largest GraphQL request body (POST) the gateway reads to validate it; larger ones get 413 `Request is too large`.'),
      max_query_bytes: z
        .int()
        .positive()
        .default(64 * 1024)
        .describe('Longest query text accepted (POST or GET); a longer one gets 413 with a GraphQL error naming this limit.'),
      max_aliases: z
        .int()
        .min(0)
        .default(30)
        .describe(
          'Most aliased fields one operation may select (fragments counted where they are spread); more get 400 with a GraphQL error naming this limit.',
        ),
      document_cache_entries: z
        .int()
        .min(0)
        .default(1000)
        .describe(
          'Parsed and validated query documents kept per GraphQL API (least recently used evicted), so a repeated query is not parsed again; 0 disables the cache.',
        ),
      subgraph_timeout_ms: z
        .int()
        .positive()
        .default(10_000)
        .describe(
          'Supergraph and UDG APIs: how long one subgraph or data source request may take before it is aborted; its fields are then null with an error, the rest of the result is returned. A subgraph entry may set its own timeout_ms.',
        ),
      udg_max_data_source_calls: z
        .int()
        .positive()
        .default(50)
        .describe(
          'UDG APIs (execution_mode executionEngine): most distinct data source calls one request may make (identical calls are made once), the calls of the internal requests it leads to (tyk:// sources, at every loop level) included; the fields past it are null with an error naming this limit.',
        ),
      udg_max_depth: z
        .int()
        .positive()
        .default(10)
        .describe('UDG APIs: deepest query (root fields are 1 deep) the gateway resolves from data sources; a deeper one gets 400 with a GraphQL error naming this limit.'),
    })
    .prefault({})
    .describe(
      'Limits of GraphQL APIs (graphql.enabled): what the gateway reads and validates before the upstream (or, for supergraph APIs, any subgraph) sees a query, and how long a subgraph may take.',
    ),
  transform_max_body_bytes: z
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe(
      'Largest request body a body transform reads (it buffers the body to run the template); larger ones get 413 `Request is too large`. Bodies of requests no transform applies to stream and are not limited by it.',
    ),
  transform_timeout_ms: z
    .int()
    .positive()
    .default(1000)
    .describe('Longest a body transform template may run; one that runs longer is stopped and the request answered 500 `Body transform failure`.'),
  cache_max_entry_bytes: z
    .int()
    .positive()
    .default(1024 * 1024)
    .describe('Largest answer body the response cache (cache_options) stores; a larger answer is served but not cached.'),
  cache_memory_bytes: z
    .int()
    .positive()
    .default(64 * 1024 * 1024)
    .describe(
      'Memory the embedded store gives cached answers; beyond it the oldest entries are dropped. (With Redis the cache is in Redis, bounded by its maxmemory policy.)',
    ),
};
