// An ApiDefinition's graph_ref (spec.graph_ref, or spec.graphql.graph_ref where Tyk Operator places it) -> its `graphql` section, as the gateway needs it (reference graphql.md §1):
//   execution_mode subgraph     graph_ref names a SubGraph: graphql.schema <- its spec.schema (its sdl when the
//                               schema is empty), graphql.subgraph.sdl <- its spec.sdl
//   execution_mode supergraph   graph_ref names a SuperGraph: graphql.supergraph.subgraphs <- one entry per
//                               subgraph_refs SubGraph: {name, url, sdl, timeout_ms?}, the url being the
//                               proxy.target_url of the ApiDefinition serving that SubGraph (graph_ref, subgraph
//                               mode); merged_sdl and graphql.schema <- the SuperGraph's composed SDL
//                               (status.merged_sdl)
// A graph that is missing, not composed yet, or a SubGraph no API serves makes the API wait (WaitingError, named);
// a graph_ref on an API that is neither mode is refused (InvalidSpecError). Pure over what the lookups return.
import { specGraphRef, type ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import { keyOf } from '../../kube/object.ts';
import { InvalidSpecError, WaitingError } from '../sync/errors.ts';
import type { ApiDefinitionObject, SubGraphObject, SuperGraphObject } from '../cluster/resources.ts';

export interface GraphLookups {
  subgraph(key: string): SubGraphObject | undefined;
  supergraph(key: string): SuperGraphObject | undefined;
  /** The ApiDefinition serving a SubGraph (graph_ref, subgraph mode). */
  subgraphApi(namespace: string | undefined, name: string): ApiDefinitionObject | undefined;
}

export function graphqlFromGraphRef(namespace: string | undefined, spec: ApiDefinitionSpec, lookups: GraphLookups): ApiDefinitionSpec['graphql'] {
  const ref = specGraphRef(spec);
  if (!ref) return spec.graphql;
  const { graph_ref: _placed, ...graphql } = spec.graphql ?? {};
  const mode = graphql.execution_mode ?? '';
  if (mode === 'subgraph') {
    const subgraph = lookups.subgraph(keyOf(namespace, ref));
    if (!subgraph) throw new WaitingError(`SubGraph ${keyOf(namespace, ref)} (graph_ref) does not exist`);
    const sdl = subgraph.spec.sdl ?? '';
    return { ...graphql, schema: subgraph.spec.schema || sdl, subgraph: { ...(graphql.subgraph ?? {}), sdl } };
  }
  if (mode === 'supergraph') {
    const key = keyOf(namespace, ref);
    const supergraph = lookups.supergraph(key);
    if (!supergraph) throw new WaitingError(`SuperGraph ${key} (graph_ref) does not exist`);
    const merged = supergraph.status?.merged_sdl;
    if (!merged) throw new WaitingError(`SuperGraph ${key} is not composed yet${readyMessage(supergraph)}`);
    const subgraphs = (supergraph.spec.subgraph_refs ?? []).map((r) => {
      const ns = r.namespace || supergraph.metadata.namespace;
      const subgraph = lookups.subgraph(keyOf(ns, r.name));
      if (!subgraph) throw new WaitingError(`SubGraph ${keyOf(ns, r.name)} (of SuperGraph ${key}) does not exist`);
      const api = lookups.subgraphApi(ns, r.name);
      const url = api?.spec.proxy?.target_url;
      if (!url)
        throw new WaitingError(
          `SubGraph ${keyOf(ns, r.name)} (of SuperGraph ${key}) is served by no ApiDefinition (graph_ref, execution_mode subgraph) with a proxy.target_url`,
        );
      return { name: r.name, url, sdl: subgraph.spec.sdl ?? '', ...(subgraph.spec.timeout_ms ? { timeout_ms: subgraph.spec.timeout_ms } : {}) };
    });
    return { ...graphql, schema: supergraph.spec.schema || merged, supergraph: { ...(graphql.supergraph ?? {}), subgraphs, merged_sdl: merged } };
  }
  throw new InvalidSpecError(`graph_ref needs graphql.execution_mode subgraph (a SubGraph) or supergraph (a SuperGraph), not "${mode}"`);
}

function readyMessage(supergraph: SuperGraphObject): string {
  const ready = supergraph.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'False' && ready.message ? `: ${ready.message}` : '';
}
