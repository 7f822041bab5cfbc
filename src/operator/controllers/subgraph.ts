// SubGraph: one federation subgraph (its SDL, and the full schema of its service). Ready only when it is served:
// its SDL (and schema, when given) must build as the gateway builds a subgraph's schema (graphql-schema/
// subgraph.ts: Ready=False InvalidSDL naming the line otherwise), an ApiDefinition must serve it (WaitingForApi)
// and that API must be synced and Ready for its current spec (ApiNotReady, with the API's own message); then
// Ready=True Served. Linked (status.linked_by_api: the id of the ApiDefinition
// serving it in subgraph mode; linked_by_supergraphs: the SuperGraphs composing it) and guarded: its deletion waits
// while a SuperGraph composes it or an ApiDefinition names it. Composition is the SuperGraph's business.
import { describeSdlProblem } from '../../graphql-schema/build.ts';
import { buildSubgraphSchema } from '../../graphql-schema/subgraph.ts';
import type { Cache } from '../../kube/cache.ts';
import type { Informer } from '../../kube/informer.ts';
import { TerminalError, type ReconcileResult, type Reconciler } from '../../kube/controller.ts';
import { objectKey } from '../../kube/object.ts';
import type { GraphUsers } from '../cluster/graph-users.ts';
import { graphRefOf } from '../cluster/indexes.ts';
import { FINALIZERS, GwResources, type ApiDefinitionObject, type SubGraphObject } from '../cluster/resources.ts';
import { apiDefinitionId } from '../translate/apidefinition.ts';
import type { ResourceWriter } from '../sync/writer.ts';
import { finalizeGraph, writeGraphStatus, type ReadyState } from './graph-lifecycle.ts';

export class SubGraphReconciler implements Reconciler {
  readonly #subgraphs: Cache<SubGraphObject>;
  readonly #users: GraphUsers;
  readonly #writer: ResourceWriter;

  constructor(subgraphs: Cache<SubGraphObject>, users: GraphUsers, writer: ResourceWriter) {
    this.#subgraphs = subgraphs;
    this.#users = users;
    this.#writer = writer;
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const subgraph = this.#subgraphs.get(key);
    if (!subgraph) return;
    const api = this.#users.subgraphApi(subgraph.metadata.namespace, subgraph.metadata.name);
    const fields = {
      ...(api ? { linked_by_api: apiDefinitionId(api.metadata.namespace, api.metadata.name, api.spec) } : {}),
      linked_by_supergraphs: this.#users.supergraphsComposing(subgraph).map(objectKey),
    };
    const resource = GwResources.subGraph;
    if (subgraph.metadata.deletionTimestamp)
      return finalizeGraph(this.#writer, resource, FINALIZERS.subGraph, subgraph, this.#users.subgraphBlockers(subgraph), fields, signal);
    await this.#writer.addFinalizer(resource, subgraph, FINALIZERS.subGraph, signal);
    const invalid = sdlState(subgraph.spec);
    await writeGraphStatus(this.#writer, resource, subgraph, fields, invalid ?? servedState(api), signal);
    if (invalid) throw new TerminalError(invalid.message); // not a success: checked again when the SDL changes
  }
}

/**
 * A SubGraph's Ready follows its API's: the SubGraph an API serves is enqueued whenever that API's Ready condition
 * changes (the API's own watch reacts to spec and sync-state changes only; readiness can change without either,
 * as when the gateway reloads).
 */
export function watchServingApis(apis: Informer<ApiDefinitionObject>, enqueue: (subgraphKey: string) => void): void {
  const readiness = (api: ApiDefinitionObject): string => {
    const ready = api.status?.conditions?.find((c) => c.type === 'Ready');
    return `${ready?.status ?? ''}|${ready?.reason ?? ''}|${ready?.message ?? ''}`;
  };
  apis.addHandlers({
    onUpdate: (old, api) => {
      const ref = graphRefOf(api);
      if (ref?.startsWith('SubGraph:') && readiness(old) !== readiness(api)) enqueue(ref.slice('SubGraph:'.length));
    },
  });
}

/** Why the SDL (or the schema given beside it) is not what a gateway can serve; undefined when both build. */
function sdlState(spec: SubGraphObject['spec']): ReadyState | undefined {
  if (!spec.sdl) return { status: 'False', reason: 'InvalidSDL', message: 'spec.sdl is empty: a subgraph needs its federation SDL' };
  for (const [field, sdl] of [
    ['spec.sdl', spec.sdl],
    ['spec.schema', spec.schema],
  ] as const) {
    if (!sdl) continue;
    const built = buildSubgraphSchema(sdl);
    if ('problem' in built) return { status: 'False', reason: 'InvalidSDL', message: `${field}: ${describeSdlProblem(built.problem)}` };
  }
  return undefined;
}

/** Ready follows the API serving the subgraph: synced (its current generation) and Ready. */
function servedState(api: ApiDefinitionObject | undefined): ReadyState {
  if (!api) return { status: 'False', reason: 'WaitingForApi', message: 'no ApiDefinition serves it (graph_ref naming it, graphql.execution_mode subgraph)' };
  const name = `ApiDefinition ${objectKey(api)}`;
  const ready = api.status?.conditions?.find((c) => c.type === 'Ready');
  const current = api.status?.observedGeneration === undefined || api.status.observedGeneration === api.metadata.generation;
  if (ready?.status !== 'True' || api.status?.latestTransaction?.status !== 'Successful' || !current) {
    return {
      status: 'False',
      reason: 'ApiNotReady',
      message: `${name} serving it is not Ready${ready?.message && ready.status !== 'True' ? `: ${ready.message}` : ''}`,
    };
  }
  return { status: 'True', reason: 'Served', message: `served by ${name}` };
}
