// Federated execution of a supergraph API (graphql.execution_mode supergraph): the composed supergraph SDL is
// turned into an executable schema by @graphql-tools/federation (MIT, graphql-hive), which plans each operation
// across the subgraphs, fetching entities with `_entities(representations)` and batching them per request. Each
// subgraph call carries the subgraph's headers and is aborted after its timeout (graphql.supergraph.subgraphs[].
// timeout_ms, else the gateway's graphql.subgraph_timeout_ms), so a subgraph that does not answer costs that much
// and no more: its fields come back null with an error naming their path, the others' data is returned (partial
// results, as GraphQL expects). Errors reach the client as message, locations and path only (a subgraph's
// request, which carries entity keys, is never echoed). Never logs queries, variables or results.
import { getStitchedSchemaFromSupergraphSdl } from '@graphql-tools/federation';
import { execute, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { SupergraphSpec } from '../definition/graphql-spec.ts';
import { executionAnswer, type GraphqlErrorEntry } from './error-reply.ts';

export interface SupergraphExecutor {
  execute(
    document: DocumentNode,
    variables: Record<string, unknown>,
    operationName: string | undefined,
  ): Promise<{ data?: unknown; errors?: GraphqlErrorEntry[] }>;
}

export function supergraphExecutor(spec: SupergraphSpec, defaultTimeoutMs: number): SupergraphExecutor {
  const byName = new Map(spec.subgraphs.map((s) => [s.name.toLowerCase(), s]));
  const schema: GraphQLSchema = getStitchedSchemaFromSupergraphSdl({
    supergraphSdl: spec.supergraphSdl,
    batch: true,
    httpExecutorOpts: ({ name }) => {
      const subgraph = byName.get(name.toLowerCase());
      return { timeout: subgraph?.timeoutMs ?? defaultTimeoutMs, ...(subgraph ? { endpoint: subgraph.url, headers: subgraph.headers } : {}) };
    },
  });
  return {
    async execute(document, variables, operationName) {
      // A fresh context per request: the entity loaders are cached per context, and must not outlive the request.
      const result: ExecutionResult = await execute({
        schema,
        document,
        variableValues: variables,
        contextValue: {},
        ...(operationName ? { operationName } : {}),
      });
      return executionAnswer(result);
    },
  };
}
