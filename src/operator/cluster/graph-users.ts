// Who uses a federation graph, answered from the indexes (indexes.ts GRAPH_REF, SUBGRAPH_REFS): the SuperGraphs
// composing a SubGraph, the ApiDefinitions naming a SubGraph or SuperGraph in graph_ref, and every API a SubGraph
// reaches (directly, or through a SuperGraph). Used for deletion blockers, status back-links and for sending a
// graph's change to every API serving it.
import type { Cache } from '../../kube/cache.ts';
import { keyOf, objectKey, type KubeObject } from '../../kube/object.ts';
import { GRAPH_REF, graphRefValue, SUBGRAPH_REFS } from './indexes.ts';
import type { ApiDefinitionObject, SuperGraphObject } from './resources.ts';

export class GraphUsers {
  readonly #apis: Cache<ApiDefinitionObject>;
  readonly #supergraphs: Cache<SuperGraphObject>;

  constructor(apis: Cache<ApiDefinitionObject>, supergraphs: Cache<SuperGraphObject>) {
    this.#apis = apis;
    this.#supergraphs = supergraphs;
  }

  supergraphsComposing(subgraph: KubeObject): SuperGraphObject[] {
    return sorted(this.#supergraphs.byIndex(SUBGRAPH_REFS, objectKey(subgraph)));
  }

  apisNaming(kind: 'SubGraph' | 'SuperGraph', graph: KubeObject): ApiDefinitionObject[] {
    return sorted(this.#apis.byIndex(GRAPH_REF, graphRefValue(kind, graph.metadata.namespace, graph.metadata.name)));
  }

  /** The API serving a SubGraph in subgraph mode (its upstream is the subgraph's URL), if any. */
  subgraphApi(namespace: string | undefined, name: string): ApiDefinitionObject | undefined {
    return sorted(this.#apis.byIndex(GRAPH_REF, graphRefValue('SubGraph', namespace, name)))[0];
  }

  /** Every ApiDefinition whose graphql section a SubGraph's change alters: its own, and those of its SuperGraphs. */
  apisReachedBySubgraph(subgraph: KubeObject): ApiDefinitionObject[] {
    return [...this.apisNaming('SubGraph', subgraph), ...this.supergraphsComposing(subgraph).flatMap((s) => this.apisNaming('SuperGraph', s))];
  }

  /** "SuperGraph ns/a", "ApiDefinition ns/b": what blocks deleting a SubGraph. */
  subgraphBlockers(subgraph: KubeObject): string[] {
    return [
      ...this.supergraphsComposing(subgraph).map((s) => `SuperGraph ${objectKey(s)}`),
      ...this.apisNaming('SubGraph', subgraph).map((a) => `ApiDefinition ${objectKey(a)}`),
    ];
  }
}

function sorted<T extends KubeObject>(objects: T[]): T[] {
  return [...objects].sort((a, b) => keyOf(a.metadata.namespace, a.metadata.name).localeCompare(keyOf(b.metadata.namespace, b.metadata.name)));
}
