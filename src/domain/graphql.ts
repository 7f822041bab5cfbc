// GraphQL in the data model: the Classic definition's `graphql` section (Tyk\'s field names, reference
// graphql.md §1) and the per-API GraphQL permissions of an access right (allowed_types / restricted_types,
// disable_introspection). Shapes only; what the gateway does with them is src/gateway (definition/graphql.ts,
// middleware/validation/graphql.ts). The engine (UDG: checked by definition-rules/graphql.ts, compiled by
// definition/udg.ts), playground and supergraph sections (checked at load: definition/graphql.ts) stay free-form.
import { z } from 'zod';
import { FreeForm } from './json.ts';

export const GRAPHQL_EXECUTION_MODES = ['', 'proxyOnly', 'executionEngine', 'supergraph', 'subgraph'] as const;

export const GraphqlSection = z.object({
  enabled: z.boolean().optional().describe('Serve the API as GraphQL: requests are parsed and validated against `schema` before they reach the upstream.'),
  execution_mode: z
    .enum(GRAPHQL_EXECUTION_MODES)
    .optional()
    .describe(
      'proxyOnly (default; subgraph behaves the same): validate, then forward the request to proxy.target_url. supergraph: validate, then execute across graphql.supergraph.subgraphs (filled by the operator from a SuperGraph graph_ref). executionEngine (Universal Data Graph): validate, then resolve the query from graphql.engine.data_sources (REST, GraphQL); proxy.target_url may be empty.',
    ),
  version: z.enum(['', '1', '2', '3-preview']).optional().describe('Engine version of Tyk; accepted, without effect here.'),
  schema: z.string().optional().describe('The GraphQL schema (SDL) requests are validated against; required when enabled. An invalid SDL refuses the API.'),
  last_schema_update: z.string().optional(),
  introspection: z
    .object({
      disabled: z
        .boolean()
        .optional()
        .describe('Refuse introspection queries for every client of this API (keys can also refuse it: access_rights[api].disable_introspection).'),
    })
    .optional(),
  proxy: FreeForm.optional().describe('Proxy-only settings of Tyk (auth_headers, request_headers, subscription_type); accepted as written.'),
  playground: FreeForm.optional(),
  engine: FreeForm.optional().describe(
    'executionEngine (UDG): field_configs[{type_name, field_name, disable_default_mapping, path}], data_sources[{kind REST|GraphQL, name, root_fields[{type, fields}], config}], global_headers[{key, value}].',
  ),
  type_field_configurations: z.array(FreeForm).optional(),
  subgraph: FreeForm.optional(),
  supergraph: FreeForm.optional().describe(
    'supergraph mode: subgraphs[{name, url, sdl, headers, timeout_ms}], global_headers, merged_sdl; composed by the gateway at load.',
  ),
});
export type GraphqlSection = z.infer<typeof GraphqlSection>;

/** One type's fields, `*` for all of them. */
export const GraphqlTypeFields = z.object({
  name: z.string().describe('GraphQL type name, for example Query or Country.'),
  fields: z.array(z.string()).describe('Field names of that type; `*` means every field.'),
});
export type GraphqlTypeFields = z.infer<typeof GraphqlTypeFields>;

/** Per-API GraphQL permissions of an access right (key, policy, SecurityPolicy reference). */
export const GraphqlAccessFields = {
  allowed_types: z
    .array(GraphqlTypeFields)
    .optional()
    .describe('GraphQL allow-list: when present, only these fields may be queried (wins over restricted_types).'),
  restricted_types: z.array(GraphqlTypeFields).optional().describe('GraphQL block-list: these fields may not be queried.'),
  disable_introspection: z.boolean().optional().describe('Refuse GraphQL introspection queries of this key (403 `introspection is disabled`).'),
};
