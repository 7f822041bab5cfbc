// The lifecycle both federation graph kinds (SubGraph, SuperGraph) share: they are not synced to a gateway, they
// hold a finalizer so they cannot disappear under their users, and their status is one Ready condition plus their
// own fields. A graph being deleted waits, with a DeletionBlocked condition and a Warning Event naming its users,
// until none is left; then the finalizer goes.
import { setCondition, type Condition } from '../../kube/conditions.ts';
import type { ReconcileResult } from '../../kube/controller.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';
import type { ResourceWriter } from '../sync/writer.ts';

type GraphObject = KubeObject & { status?: { conditions?: Condition[] | undefined } | undefined };

export interface ReadyState {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

const WAIT_MS = 30_000;

/** Deletion: blocked while `users` is not empty, else the finalizer is removed. */
export async function finalizeGraph(
  writer: ResourceWriter,
  resource: ResourceType,
  finalizer: string,
  graph: GraphObject,
  users: string[],
  fields: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ReconcileResult | void> {
  if (!writer.hasFinalizer(graph, finalizer)) return;
  if (users.length > 0) {
    const message = `not deleted while ${users.join(', ')} still ${users.length === 1 ? 'uses' : 'use'} it`;
    writer.event(graph, 'Warning', 'DeletionBlocked', message);
    await writeGraphStatus(writer, resource, graph, fields, { status: 'False', reason: 'DeletionBlocked', message }, signal);
    return { requeueAfterMs: WAIT_MS };
  }
  await writer.removeFinalizer(resource, graph, finalizer, signal);
}

/** Status: the kind's fields and the Ready condition (a Warning Event when it turns False with a new reason). */
export async function writeGraphStatus(
  writer: ResourceWriter,
  resource: ResourceType,
  graph: GraphObject,
  fields: Record<string, unknown>,
  ready: ReadyState,
  signal?: AbortSignal,
): Promise<void> {
  const previous = graph.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready.status === 'False' && ready.reason !== 'DeletionBlocked' && (previous?.reason !== ready.reason || previous.message !== ready.message))
    writer.event(graph, 'Warning', ready.reason, ready.message);
  const generation = graph.metadata.generation ?? 0;
  await writer.writeStatus(
    resource,
    graph,
    {
      ...fields,
      conditions: setCondition(graph.status?.conditions, { ...ready, type: 'Ready', observedGeneration: generation }, new Date()),
      observedGeneration: generation,
    },
    signal,
  );
}
