// SuperGraph: the SubGraphs it names (subgraph_refs; a ref's namespace defaults to its own), composed with
// @theguild/federation-composition (graphql-schema/compose.ts). Composed: status.merged_sdl holds the public SDL
// and Ready=True; a SubGraph missing: Ready=False WaitingForSubGraph naming it (retried, and at once when it
// appears); subgraphs that do not compose: Ready=False CompositionFailed with a Warning Event naming the subgraph
// and the conflict, and merged_sdl is dropped (APIs keep what their gateway already serves until it composes
// again). status.linked_by_apis lists the ApiDefinitions serving it; its deletion waits while any names it.
import type { Cache } from '../../kube/cache.ts';
import { TerminalError, type ReconcileResult, type Reconciler } from '../../kube/controller.ts';
import { objectKey } from '../../kube/object.ts';
import { composeSubgraphs, describeCompositionProblems } from '../../graphql-schema/compose.ts';
import type { GraphUsers } from '../cluster/graph-users.ts';
import { subgraphKeysOf } from '../cluster/indexes.ts';
import { FINALIZERS, GwResources, type SubGraphObject, type SuperGraphObject } from '../cluster/resources.ts';
import type { ResourceWriter } from '../sync/writer.ts';
import { finalizeGraph, writeGraphStatus } from './graph-lifecycle.ts';

const WAIT_MS = 30_000;

export class SuperGraphReconciler implements Reconciler {
  readonly #supergraphs: Cache<SuperGraphObject>;
  readonly #subgraphs: Cache<SubGraphObject>;
  readonly #users: GraphUsers;
  readonly #writer: ResourceWriter;

  constructor(supergraphs: Cache<SuperGraphObject>, subgraphs: Cache<SubGraphObject>, users: GraphUsers, writer: ResourceWriter) {
    this.#supergraphs = supergraphs;
    this.#subgraphs = subgraphs;
    this.#users = users;
    this.#writer = writer;
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const supergraph = this.#supergraphs.get(key);
    if (!supergraph) return;
    const apis = this.#users.apisNaming('SuperGraph', supergraph).map(objectKey);
    const resource = GwResources.superGraph;
    if (supergraph.metadata.deletionTimestamp) {
      return finalizeGraph(
        this.#writer,
        resource,
        FINALIZERS.superGraph,
        supergraph,
        apis.map((a) => `ApiDefinition ${a}`),
        { ...supergraph.status, linked_by_apis: apis },
        signal,
      );
    }
    await this.#writer.addFinalizer(resource, supergraph, FINALIZERS.superGraph, signal);
    const keys = subgraphKeysOf(supergraph);
    const missing = keys.filter((k) => !this.#subgraphs.get(k));
    if (keys.length === 0 || missing.length > 0) {
      const message = keys.length === 0 ? 'spec.subgraph_refs is empty: nothing to compose' : `waiting for SubGraph ${missing.join(', ')} (subgraph_refs)`;
      await writeGraphStatus(
        this.#writer,
        resource,
        supergraph,
        { linked_by_apis: apis },
        { status: 'False', reason: keys.length === 0 ? 'InvalidSpec' : 'WaitingForSubGraph', message },
        signal,
      );
      if (keys.length === 0) throw new TerminalError(message); // not a success: nothing to do until the spec changes
      return { requeueAfterMs: WAIT_MS };
    }
    const composed = composeSubgraphs(
      keys.map((k) => {
        const subgraph = this.#subgraphs.get(k)!;
        return { name: subgraph.metadata.name, sdl: subgraph.spec.sdl ?? '' };
      }),
    );
    if ('problems' in composed) {
      const message = `the subgraphs do not compose: ${describeCompositionProblems(composed.problems)}`;
      await writeGraphStatus(this.#writer, resource, supergraph, { linked_by_apis: apis }, { status: 'False', reason: 'CompositionFailed', message }, signal);
      throw new TerminalError(message); // composed again when a SubGraph or the spec changes
    }
    await writeGraphStatus(
      this.#writer,
      resource,
      supergraph,
      { merged_sdl: composed.publicSdl, linked_by_apis: apis },
      { status: 'True', reason: 'Composed', message: `composed from ${keys.length} subgraph(s)` },
      signal,
    );
  }
}
