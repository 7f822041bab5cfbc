// One catalogue and one configuration per organisation on a dashboard: when several PortalAPICatalogues (or
// PortalConfigs) reach the same dashboard and organisation, the oldest one (creationTimestamp, then
// namespace/name) owns the dashboard's object and the others are Ready=False OrganisationTaken, naming it, instead
// of overwriting each other on every reconcile (Tyk lets them fight). A resource that does not own the
// object never changes it, not even on deletion. Resources whose context does not resolve are not candidates.
import type { Cache } from '../../kube/cache.ts';
import { objectKey, type KubeObject } from '../../kube/object.ts';
import type { ReconcileResult } from '../../kube/controller.ts';
import type { ResourceType } from '../../kube/resource.ts';
import type { ContextResolver, ResolvedContext } from '../sync/context.ts';
import { ContextError } from '../sync/errors.ts';
import type { GatewayEnv } from '../sync/gateways.ts';
import type { ResourceWriter } from '../sync/writer.ts';
import type { PortalStatus } from './portal-lifecycle.ts';

type Resolvable = KubeObject & { spec: { contextRef?: { name: string; namespace?: string | undefined } | undefined } };

/** The resource owning the organisation's object that `object` (resolved to `mine`) targets: itself or an older one. */
export async function organisationOwner<T extends Resolvable>(
  cache: Cache<T>,
  object: T,
  mine: ResolvedContext,
  orgOf: (o: T, env: GatewayEnv) => string,
  contexts: ContextResolver,
  signal?: AbortSignal,
): Promise<T> {
  const org = orgOf(object, mine.gateway.env);
  let owner = object;
  for (const other of cache.list()) {
    if (other.metadata.uid === object.metadata.uid || !older(other, owner)) continue;
    let theirs: ResolvedContext;
    try {
      theirs = await contexts.resolve(other, signal);
    } catch (error) {
      if (error instanceof ContextError) continue;
      throw error;
    }
    if (theirs.gateway.env.mode === 'pro' && theirs.gateway.env.url === mine.gateway.env.url && orgOf(other, theirs.gateway.env) === org) owner = other;
  }
  return owner;
}

/**
 * What a resource that does not own its organisation's object does: on deletion only its finalizer goes (the
 * object is the owner's); otherwise Ready=False OrganisationTaken naming the owner. Undefined when it owns it.
 */
export async function yieldToOwner<T extends Resolvable>(
  owner: T,
  object: T,
  what: string,
  org: string,
  url: string,
  resource: ResourceType,
  finalizer: string,
  services: { writer: ResourceWriter; status: PortalStatus },
  signal?: AbortSignal,
): Promise<{ result: ReconcileResult | undefined } | undefined> {
  if (owner === object) return undefined;
  if (object.metadata.deletionTimestamp) {
    await services.writer.removeFinalizer(resource, object, finalizer, signal);
    return { result: undefined };
  }
  const message = `organisation ${org} on ${url} has its ${what} from ${owner.kind ?? resource.kind} ${objectKey(owner)} (the oldest): one per organisation; this one is not synced`;
  await services.status.write(object, { status: 'False', reason: 'OrganisationTaken', message }, {}, undefined, signal);
  return { result: undefined };
}

function older(a: KubeObject, b: KubeObject): boolean {
  const at = a.metadata.creationTimestamp ?? '';
  const bt = b.metadata.creationTimestamp ?? '';
  return at !== bt ? at < bt : objectKey(a) < objectKey(b);
}
