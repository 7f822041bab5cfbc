// Custom resources in tests, through kubectl exactly as users handle them: apply manifests, read objects back,
// wait until one reaches a state. Reads of gw's own kinds (what waitFor polls, every 200 ms) go to the API server
// directly, with the suite's kubeconfig: the same object `kubectl get -o json` prints, without a kubectl process per
// read (about 70 ms of CPU each, most of an integration file's polling); other kinds are read with kubectl.
import { inject } from 'vitest';
import { KubeClient } from '../../src/kube/client.ts';
import { isNotFound } from '../../src/kube/errors.ts';
import type { ResourceType } from '../../src/kube/resource.ts';
import { kinds } from '../../src/domain/crd/kinds.ts';
import { GROUP, VERSION } from '../../src/domain/crd/meta.ts';
import { kubectl } from './kubectl.ts';
import { waitUntil } from './wait.ts';

/** gw's kinds by every name kubectl takes for them (kind, plural, short names; lower case). */
const GW_KINDS = new Map<string, ResourceType>(
  kinds.flatMap((kind) => {
    const type: ResourceType = { group: GROUP, version: VERSION, plural: kind.plural, kind: kind.kind, namespaced: true };
    return [kind.kind.toLowerCase(), kind.plural, ...kind.shortNames].map((name) => [name, type] as const);
  }),
);

let client: KubeClient | undefined;
const cluster = (): KubeClient => (client ??= KubeClient.fromKubeconfig({ kubeconfig: inject('kubeconfig'), unthrottled: true }));

export interface Resource {
  metadata: { name: string; namespace: string; resourceVersion: string; finalizers?: string[]; deletionTimestamp?: string; generation?: number };
  spec?: Record<string, unknown>;
  status?: {
    latestTransaction?: { status?: string; error?: string };
    conditions?: { type: string; status: string; reason: string; message: string; observedGeneration?: number }[];
    observedGeneration?: number;
    [key: string]: unknown;
  };
}

export function manifest(kind: string, name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'gw.gw.io/v1alpha1', kind, metadata: { name }, spec };
}

export async function apply(namespace: string, ...objects: unknown[]): Promise<void> {
  await kubectl(['apply', '-n', namespace, '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }) });
}

export async function get(kind: string, namespace: string, name: string): Promise<Resource | undefined> {
  const type = GW_KINDS.get(kind.toLowerCase());
  if (type) {
    try {
      return await cluster().get<Resource & { metadata: Resource['metadata'] & { name: string } }>(type, namespace, name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
  const result = await kubectl(['get', '-n', namespace, kind, name, '-o', 'json'], { allowFailure: true });
  if (result.code !== 0) {
    if (result.stderr.includes('NotFound')) return undefined;
    throw new Error(result.stderr);
  }
  return JSON.parse(result.stdout) as Resource;
}

/** Every object of one of gw's kinds in a namespace, optionally by label selector: read like get(). */
export async function list<T = Resource>(kind: string, namespace: string, labelSelector?: string): Promise<T[]> {
  const type = GW_KINDS.get(kind.toLowerCase());
  if (!type) throw new Error(`list: ${kind} is not one of gw's kinds (use kubectl)`);
  const answer = await cluster().list(type, namespace, labelSelector === undefined ? {} : { labelSelector });
  return answer.items as unknown as T[];
}

export function ready(resource: Resource | undefined): { status: string; reason: string; message: string; observedGeneration?: number } | undefined {
  return resource?.status?.conditions?.find((c) => c.type === 'Ready');
}

/** Polls until `check` holds for the resource (or its absence); returns the last read. */
export async function waitFor(
  kind: string,
  namespace: string,
  name: string,
  check: (resource: Resource | undefined) => boolean,
  timeoutMs = 60_000,
): Promise<Resource | undefined> {
  let last: Resource | undefined;
  await waitUntil(
    () => `${kind} ${namespace}/${name} to reach the expected state; last status: ${JSON.stringify(last?.status)}`,
    async () => {
      last = await get(kind, namespace, name);
      return check(last);
    },
    { timeoutMs, intervalMs: 200 },
  );
  return last;
}

export const synced = (resource: Resource | undefined): boolean =>
  resource?.status?.latestTransaction?.status === 'Successful' && ready(resource)?.status === 'True';

export async function events(namespace: string, name: string): Promise<{ type: string; reason: string; message: string }[]> {
  const { stdout } = await kubectl(['get', 'events', '-n', namespace, '--field-selector', `involvedObject.name=${name}`, '-o', 'json']);
  return (JSON.parse(stdout) as { items: { type: string; reason: string; message: string }[] }).items;
}
