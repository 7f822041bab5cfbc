// A GraphQL API's compiled settings (definition/graphql.ts): its schema, introspection and playground, and what
// the gateway executes itself: a supergraph's subgraphs or a Universal Data Graph's data sources (definition/udg.ts).
import type { GraphQLSchema } from 'graphql';

/** A proxy-only GraphQL API (definition/graphql.ts compiles it). */
export interface GraphqlSpec {
  /** Built once at load from graphql.schema. */
  schema: GraphQLSchema;
  /** graphql.introspection.disabled: introspection refused for every client of the API. */
  introspectionDisabled: boolean;
  /** graphql.playground.enabled: the playground page's path, relative to the listen path (graphql/playground.ts). */
  playgroundPath?: string;
  /** execution_mode supergraph: the gateway executes queries across these subgraphs instead of proxying. */
  supergraph?: SupergraphSpec;
  /** execution_mode executionEngine (Tyk's UDG): the gateway resolves queries from these data sources (definition/udg.ts). */
  udg?: UdgSpec;
}

/** A Universal Data Graph's engine: data sources and field mappings by `Type.field`. */
export interface UdgSpec {
  sources: Map<string, UdgDataSource>;
  fields: Map<string, UdgFieldConfig>;
  globalHeaders: Record<string, string>;
}

/** One data source; url, headers, body, query values and variables may hold `{{ .arguments.x }}` templates. */
export interface UdgDataSource {
  name: string;
  kind: 'REST' | 'GraphQL';
  url: string;
  method: string;
  headers: Record<string, string>;
  query: { name: string; value: string }[];
  body?: string;
  /** GraphQL with has_operation: this operation is posted instead of the client's selection. */
  operation?: string;
  variables?: string;
}

/** graphql.engine.field_configs[]: where the field's value is read in its parent (or its data source's answer). */
export interface UdgFieldConfig {
  disableDefaultMapping: boolean;
  path: string[];
}

/** A supergraph API's subgraphs, composed at load (graphql-schema/compose.ts). */
export interface SupergraphSpec {
  /** The composed supergraph SDL (join directives: which subgraph resolves what). */
  supergraphSdl: string;
  subgraphs: { name: string; url: string; headers: Record<string, string>; timeoutMs?: number }[];
}
