// SubGraph and SuperGraph: GraphQL federation. A SubGraph holds one service's schema and SDL; a SuperGraph names
// its SubGraphs; the operator composes them and writes the merged SDL in status (merged_sdl). Fields beyond these are kept as written (gw's design leaves them open).
import { z } from 'zod';
import { Conditions, ObjectRef } from './meta.ts';
import { readinessColumns, type KindDefinition } from './kind.ts';

export const SubGraphSpec = z
  .looseObject({
    schema: z.string().optional().describe('GraphQL schema of the subgraph service.'),
    sdl: z.string().optional().describe('Federation SDL of the subgraph service.'),
    timeout_ms: z
      .int()
      .positive()
      .optional()
      .describe(
        "gw: how long a supergraph API waits for this subgraph per request (default: the gateway's graphql.subgraph_timeout_ms); then its fields are null with an error.",
      ),
  })
  .meta({ 'x-kubernetes-preserve-unknown-fields': true });

export const SubGraphStatus = z.object({
  linked_by_api: z.string().optional().describe('Id of the API using this subgraph.'),
  linked_by_supergraphs: z.array(z.string()).optional().describe('SuperGraphs (namespace/name) composing this subgraph.'),
  conditions: Conditions.optional(),
  observedGeneration: z.int().optional(),
});

export const SuperGraphSpec = z
  .looseObject({
    subgraph_refs: z.array(ObjectRef).optional().describe('SubGraphs merged into this supergraph.'),
    schema: z.string().optional().describe('Merged GraphQL schema.'),
    merged_sdl: z.string().optional().describe('Merged federation SDL, written by the operator.'),
  })
  .meta({ 'x-kubernetes-preserve-unknown-fields': true });

export const SuperGraphStatus = z.object({
  merged_sdl: z
    .string()
    .optional()
    .describe('The composed schema clients see (public SDL), written by the operator; absent while the subgraphs do not compose.'),
  linked_by_apis: z.array(z.string()).optional().describe('ApiDefinitions (namespace/name) serving this supergraph.'),
  conditions: Conditions.optional(),
  observedGeneration: z.int().optional(),
});

export const subGraphKind: KindDefinition = {
  kind: 'SubGraph',
  plural: 'subgraphs',
  shortNames: ['gwsubgraphs'],
  description: 'SubGraph is a GraphQL federation subgraph.',
  spec: SubGraphSpec,
  status: SubGraphStatus,
  printerColumns: readinessColumns,
};

export const superGraphKind: KindDefinition = {
  kind: 'SuperGraph',
  plural: 'supergraphs',
  shortNames: ['gwsupergraphs'],
  description: 'SuperGraph is a GraphQL federation supergraph made of SubGraphs.',
  spec: SuperGraphSpec,
  status: SuperGraphStatus,
  printerColumns: readinessColumns,
};
