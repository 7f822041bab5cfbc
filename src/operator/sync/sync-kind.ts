// What the sync reconcile (sync.ts) is given: the contract a synced kind fills in (SyncKind: its payload, id,
// status fields, deletion blockers, gateway calls), the services every kind shares, and the status it keeps.
import type { Logger } from 'pino';
import type { Cache } from '../../kube/cache.ts';
import type { Condition } from '../../kube/conditions.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';
import type { Definition, ManagementClient } from '../../mgmt/client.ts';
import type { ContextResolver, ResolvedContext } from './context.ts';
import type { ApiOwners } from './load-problems.ts';
import type { OperatorMetrics } from '../process/metrics.ts';
import type { MirrorKind } from './mirror.ts';
import type { ResourceWriter } from './writer.ts';

export interface SyncStatus {
  latestTransaction?: { status?: 'Successful' | 'Failed' | undefined; time?: string | undefined; error?: string | undefined } | undefined;
  conditions?: Condition[] | undefined;
  observedGeneration?: number | undefined;
  latestCRDSpecHash?: string | undefined;
  latestGwSpecHash?: string | undefined;
}

export type SyncedObject = KubeObject & {
  spec: { contextRef?: { name: string; namespace?: string | undefined } | undefined };
  status?: SyncStatus | undefined;
};

export interface SyncKind<O extends SyncedObject> {
  kind: string;
  resource: ResourceType;
  finalizer: string;
  mirrorKind: MirrorKind;
  cache: Cache<O>;
  idOf(object: O, context: ResolvedContext): string;
  /** The payload for the gateway (may upload what it names: certificates); throws WaitingError or InvalidSpecError. */
  desired(object: O, context: ResolvedContext, id: string, signal?: AbortSignal): Promise<Definition> | Definition;
  /** The kind's own status fields (ids, links, values read from the payload when there is one). */
  kindStatus(object: O, id: string | undefined, desired: Definition | undefined): Record<string, unknown>;
  /** Resources that still need this one ("SecurityPolicy ns/name"); deletion waits while any exist. */
  deletionBlockers(object: O): string[];
  /** The whole status of an Ingress template (not synced itself); undefined: not a template. */
  templateStatus?(object: O): Record<string, unknown> | undefined;
  get(client: ManagementClient, id: string, signal?: AbortSignal): Promise<Definition | undefined>;
  put(client: ManagementClient, id: string, payload: Definition, signal?: AbortSignal): Promise<void>;
  remove(client: ManagementClient, id: string, signal?: AbortSignal): Promise<boolean>;
}

export interface SyncServices {
  contexts: ContextResolver;
  writer: ResourceWriter;
  metrics: OperatorMetrics;
  log: Logger;
  /** Which resource owns each API id, to name the other side of a listen path conflict (shared by the API kinds). */
  owners?: ApiOwners;
  /** The gateway mirror may be this old before a reconcile refreshes it. */
  mirrorMaxAgeMs: number;
  now?: () => Date;
}
