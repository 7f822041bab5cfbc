// Ingress: level-based, like every controller here. For an Ingress this operator serves (ingress/selection.ts) it
// makes one ApiDefinition per route (ingress/routes.ts), owned by the Ingress (controller ownerReference, so
// deleting the Ingress lets the cluster's garbage collector delete them, and their finalizers take the APIs off
// the gateway) and labelled gw.gw.io/ingress=<name>; the ApiDefinition controller then syncs each to the gateway
// with its status, retries and drift repair. This controller never calls the gateway itself.
//   route claimed by an older Ingress   skipped; Warning Event `Conflict` naming the older Ingress
//   route whose backend cannot resolve  skipped; Warning Event `InvalidBackend`
//   ApiDefinitions no longer wanted     deleted once every wanted one is synced (a path change never leaves a
//                                       window where neither the old nor the new path is served)
//   not ours (any more)                 its ApiDefinitions are deleted
// Status: status.loadBalancer.ingress from GW_INGRESS_PUBLISH_ADDRESS. Events: `Synced` after each change it
// made, Warning `SyncFailed` when a write fails (then retried with backoff).
import type { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import type { ReconcileResult, Reconciler } from '../../kube/controller.ts';
import { isNotFound } from '../../kube/errors.ts';
import { objectKey } from '../../kube/object.ts';
import { apiVersionOf } from '../../kube/resource.ts';
import type { ApiDefinitionSpec } from '../../api/crd/apidefinition.ts';
import { canonicalJson } from '../hash.ts';
import { INGRESS_LABEL, IngressResources, type IngressClassObject, type IngressObject, type ServiceObject } from '../ingress/kinds.ts';
import { CLAIMS, OWNER_INGRESS } from '../ingress/ingress-indexes.ts';
import { loadBalancerStatus } from '../ingress/publish-address.ts';
import { childName, claimOf, ingressRoutes, type ResolvedRoute } from '../ingress/routes.ts';
import { isOurIngress } from '../ingress/selection.ts';
import { GwResources, type ApiDefinitionObject } from '../resources.ts';
import type { ResourceWriter } from '../writer.ts';

export interface IngressCaches {
  ingresses: Cache<IngressObject>;
  classes: Cache<IngressClassObject>;
  services: Cache<ServiceObject>;
  apis: Cache<ApiDefinitionObject>;
}

export interface IngressSettings {
  watchedClass: string;
  publishAddresses: string[];
}

/** Recheck interval while wanted ApiDefinitions are not synced yet (their updates also requeue the Ingress). */
const WAIT_FOR_CHILDREN_MS = 2000;

export class IngressReconciler implements Reconciler {
  readonly #caches: IngressCaches;
  readonly #kube: KubeClient;
  readonly #writer: ResourceWriter;
  readonly #settings: IngressSettings;

  constructor(caches: IngressCaches, kube: KubeClient, writer: ResourceWriter, settings: IngressSettings) {
    this.#caches = caches;
    this.#kube = kube;
    this.#writer = writer;
    this.#settings = settings;
  }

  /** Whether this operator serves the Ingress (its class). */
  serves(ingress: IngressObject): boolean {
    return isOurIngress(ingress, this.#settings.watchedClass, { get: (name) => this.#caches.classes.get(name), list: () => this.#caches.classes.list() });
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    const ingress = this.#caches.ingresses.get(key);
    if (!ingress || ingress.metadata.deletionTimestamp) return; // the garbage collector deletes what it owned
    const owned = this.#caches.apis.byIndex(OWNER_INGRESS, ingress.metadata.uid ?? '');
    if (!this.serves(ingress)) {
      for (const child of owned) await this.#delete(child, signal);
      return;
    }
    const wanted = new Map<string, ApiDefinitionObject>();
    const changes = { created: 0, updated: 0, deleted: 0 };
    try {
      for (const route of ingressRoutes(ingress, (ns, name) => this.#caches.services.get(`${ns}/${name}`))) {
        if (route.problem !== undefined) {
          this.#writer.event(ingress, 'Warning', 'InvalidBackend', route.problem);
          continue;
        }
        const winner = this.#olderClaimant(ingress, route);
        if (winner) {
          this.#writer.event(ingress, 'Warning', 'Conflict', `${describe(route)} is already served by Ingress ${objectKey(winner)} (older); not served for this Ingress`);
          continue;
        }
        const child = this.#child(ingress, route);
        const existing = this.#caches.apis.get(objectKey(child));
        if (existing && !ownedBy(existing, ingress)) {
          this.#writer.event(ingress, 'Warning', 'Conflict', `${describe(route)}: ApiDefinition ${objectKey(existing)} exists and is not this Ingress's; not served`);
          continue;
        }
        wanted.set(child.metadata.name, existing ?? child);
        if (existing && sameContent(existing, child)) continue;
        await this.#kube.apply(GwResources.apiDefinition, child, undefined, { signal });
        changes[existing ? 'updated' : 'created']++;
      }
      const pending = [...wanted.values()].some((child) => !isSynced(child));
      if (!pending) {
        for (const child of owned) {
          if (wanted.has(child.metadata.name)) continue;
          await this.#delete(child, signal);
          changes.deleted++;
        }
      }
      const status = loadBalancerStatus(this.#settings.publishAddresses);
      if (status) await this.#writer.writeStatus(IngressResources.ingress, ingress, { ...ingress.status, loadBalancer: status }, signal);
      if (changes.created + changes.updated + changes.deleted > 0) {
        this.#writer.event(ingress, 'Normal', 'Synced', `ApiDefinitions: ${changes.created} created, ${changes.updated} updated, ${changes.deleted} deleted; ${wanted.size} serving this Ingress`);
      }
      return pending || owned.some((child) => !wanted.has(child.metadata.name)) ? { requeueAfterMs: WAIT_FOR_CHILDREN_MS } : undefined;
    } catch (error) {
      if (!signal.aborted) this.#writer.event(ingress, 'Warning', 'SyncFailed', (error as Error).message);
      throw error;
    }
  }

  /** The oldest other Ingress served here claiming the same host and path, when it is older than this one. */
  #olderClaimant(ingress: IngressObject, route: ResolvedRoute): IngressObject | undefined {
    const serving = (candidate: IngressObject): boolean => {
      const child = this.#caches.apis.get(`${candidate.metadata.namespace}/${childName(candidate.metadata.name, route)}`);
      return child !== undefined && ownedBy(child, candidate);
    };
    const older = (a: IngressObject, b: IngressObject): boolean => olderThan(a, b, serving);
    const rivals = this.#caches.ingresses.byIndex(CLAIMS, claimOf(route)).filter((other) => other.metadata.uid !== ingress.metadata.uid && !other.metadata.deletionTimestamp && this.serves(other));
    return rivals.filter((other) => older(other, ingress)).sort((a, b) => (older(a, b) ? -1 : 1))[0];
  }

  #child(ingress: IngressObject, route: ResolvedRoute): ApiDefinitionObject {
    const namespace = ingress.metadata.namespace ?? 'default';
    const name = childName(ingress.metadata.name, route);
    const spec: ApiDefinitionSpec = {
      name: `${namespace}/${name}`,
      active: true,
      use_keyless: true,
      ...(route.host ? { domain: route.host } : {}),
      proxy: { listen_path: route.listenPath, target_url: route.upstream!, strip_listen_path: false, ...(route.exact ? { listen_path_exact: true } : {}) },
    } as ApiDefinitionSpec;
    return {
      apiVersion: apiVersionOf(GwResources.apiDefinition),
      kind: GwResources.apiDefinition.kind,
      metadata: {
        name,
        namespace,
        labels: { [INGRESS_LABEL]: ingress.metadata.name },
        ownerReferences: [{ apiVersion: apiVersionOf(IngressResources.ingress), kind: 'Ingress', name: ingress.metadata.name, uid: ingress.metadata.uid ?? '', controller: true }],
      },
      spec,
    };
  }

  async #delete(child: ApiDefinitionObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#kube.delete(GwResources.apiDefinition, child.metadata.namespace, child.metadata.name, { signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

function describe(route: ResolvedRoute): string {
  return `host ${route.host || '*'} path ${route.listenPath} (${route.origin})`;
}

function ownedBy(child: ApiDefinitionObject, ingress: IngressObject): boolean {
  return (child.metadata.ownerReferences ?? []).some((ref) => ref.kind === 'Ingress' && ref.uid === ingress.metadata.uid);
}

function sameContent(existing: ApiDefinitionObject, desired: ApiDefinitionObject): boolean {
  return (
    canonicalJson(existing.spec) === canonicalJson(desired.spec) &&
    existing.metadata.labels?.[INGRESS_LABEL] === desired.metadata.labels?.[INGRESS_LABEL] &&
    ownedByRefs(existing, desired)
  );
}

function ownedByRefs(existing: ApiDefinitionObject, desired: ApiDefinitionObject): boolean {
  const want = desired.metadata.ownerReferences![0]!;
  return (existing.metadata.ownerReferences ?? []).some((ref) => ref.uid === want.uid && ref.controller === true);
}

function isSynced(child: ApiDefinitionObject): boolean {
  const status = child.status;
  return status?.latestTransaction?.status === 'Successful' && status.observedGeneration === child.metadata.generation && child.metadata.generation !== undefined;
}

/**
 * Older: the earlier creationTimestamp. Timestamps have one-second resolution; on a tie the Ingress already serving
 * the route keeps it (no flapping), then namespace/name decides.
 */
function olderThan(a: IngressObject, b: IngressObject, serving: (ingress: IngressObject) => boolean): boolean {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb;
  const sa = serving(a);
  if (sa !== serving(b)) return sa;
  return objectKey(a) < objectKey(b);
}
