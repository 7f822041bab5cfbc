// SubGraph: one federation subgraph (its SDL, and the full schema of its service). Checked (the SDL must parse:
// Ready=False InvalidSDL naming the line otherwise), linked (status.linked_by_api: the id of the ApiDefinition
// serving it in subgraph mode; linked_by_supergraphs: the SuperGraphs composing it) and guarded: its deletion waits
// while a SuperGraph composes it or an ApiDefinition names it. Composition is the SuperGraph's business.
import { GraphQLError, parse } from 'graphql';
import type { Cache } from '../../kube/cache.ts';
import { TerminalError, type ReconcileResult, type Reconciler } from '../../kube/controller.ts';
import { objectKey } from '../../kube/object.ts';
import type { GraphUsers } from '../graph-users.ts';
import { FINALIZERS, GwResources, type SubGraphObject } from '../resources.ts';
import { apiDefinitionId } from '../translate/apidefinition.ts';
import type { ResourceWriter } from '../writer.ts';
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
    if (subgraph.metadata.deletionTimestamp) return finalizeGraph(this.#writer, resource, FINALIZERS.subGraph, subgraph, this.#users.subgraphBlockers(subgraph), fields, signal);
    await this.#writer.addFinalizer(resource, subgraph, FINALIZERS.subGraph, signal);
    const state = sdlState(subgraph.spec.sdl);
    await writeGraphStatus(this.#writer, resource, subgraph, fields, state, signal);
    if (state.status === 'False') throw new TerminalError(state.message); // not a success: checked again when the SDL changes
  }
}

function sdlState(sdl: string | undefined): ReadyState {
  if (!sdl) return { status: 'False', reason: 'InvalidSDL', message: 'spec.sdl is empty: a subgraph needs its federation SDL' };
  try {
    parse(sdl);
    return { status: 'True', reason: 'Valid', message: 'the SDL parses' };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const at = error.locations?.[0];
    return { status: 'False', reason: 'InvalidSDL', message: `spec.sdl: ${error.message}${at ? ` (line ${at.line}, column ${at.column})` : ''}` };
  }
}
