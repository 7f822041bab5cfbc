// Ingress: level-based, like every controller here. For an Ingress this operator serves (ingress/selection.ts) it
// makes, per route (ingress/routes.ts), an ApiDefinition — or, from a GwOasApiDefinition template, a ConfigMap
// holding the filled document plus a GwOasApiDefinition reading it (ingress/children.ts) — owned by the Ingress
// (controller ownerReference: deleting the Ingress lets the cluster's garbage collector delete them, and their
// finalizers take the APIs off the gateway) and labelled gw.gw.io/ingress=<name>. The ApiDefinition and
// GwOasApiDefinition controllers then sync them with status, retries and drift repair; this controller calls the
// gateway only to upload spec.tls certificates.
//   route claimed by an older Ingress   skipped; Warning Event `Conflict` naming the older Ingress
//   route whose backend cannot resolve  skipped; Warning Event `InvalidBackend`
//   template missing or not a template  nothing changes; Warning Event `TemplateNotFound` (retried when it appears)
//   resources no longer wanted          deleted once every wanted one is synced (a path change never leaves a
//                                       window where neither the old nor the new path is served)
//   not ours (any more)                 its resources are deleted, the status address it published removed
//   spec.tls                            the host's certificate uploaded, its id on the API (ingress/tls.ts); the
//                                       Secret is watched (a renewal re-reconciles the Ingress); the gateway's
//                                       HTTPS listener presents it for the host by SNI
// Status: status.loadBalancer.ingress from GW_INGRESS_PUBLISH_ADDRESS. Events: `Synced` after each change it
// made, Warning `SyncFailed` when a write fails (then retried with backoff).
import type { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import type { ReconcileResult, Reconciler } from '../../kube/controller.ts';
import { isNotFound } from '../../kube/errors.ts';
import { objectKey, type KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';
import type { CertificateSecrets } from '../sync/certificate-secrets.ts';
import type { ContextResolver } from '../sync/context.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { IngressCertificates, type CertificateResult } from '../ingress/tls.ts';
import { childObjects, type ChildKind, type TemplateSource } from '../ingress/children.ts';
import { CLAIMS, OWNER_INGRESS } from '../ingress/ingress-indexes.ts';
import { INGRESS_LABEL, ingressControllerRef, IngressResources, type IngressClassObject, type IngressObject, type ServiceObject } from '../ingress/kinds.ts';
import { loadBalancerStatus } from '../ingress/publish-address.ts';
import { childName, claimOf, ingressRoutes, type ResolvedRoute } from '../ingress/routes.ts';
import { isOurIngress } from '../ingress/selection.ts';
import { isTemplate, KEYLESS, templateRefOf } from '../ingress/templates.ts';
import { configMapKeyOf } from '../cluster/indexes.ts';
import type { ApiDefinitionObject, ConfigMapObject, OasApiDefinitionObject } from '../cluster/resources.ts';
import { parseOasDocument } from '../translate/oas.ts';
import type { ResourceWriter } from '../sync/writer.ts';

export interface IngressCaches {
  ingresses: Cache<IngressObject>;
  classes: Cache<IngressClassObject>;
  services: Cache<ServiceObject>;
  apis: Cache<ApiDefinitionObject>;
  oas: Cache<OasApiDefinitionObject>;
  configMaps: Cache<ConfigMapObject>;
}

export interface IngressSettings {
  watchedClass: string;
  publishAddresses: string[];
}

/** Recheck interval while wanted resources are not synced yet (their updates also requeue the Ingress). */
const WAIT_FOR_CHILDREN_MS = 2000;

type Owned = KubeObject & { spec?: unknown; data?: unknown; status?: { latestTransaction?: { status?: string }; observedGeneration?: number } };

export class IngressReconciler implements Reconciler {
  readonly #caches: IngressCaches;
  readonly #kube: KubeClient;
  readonly #writer: ResourceWriter;
  readonly #settings: IngressSettings;
  readonly #contexts: ContextResolver;
  readonly #certificates: IngressCertificates;
  readonly #kinds: Record<ChildKind, { resource: ResourceType; cache: Cache<Owned> }>;

  constructor(
    caches: IngressCaches,
    kube: KubeClient,
    writer: ResourceWriter,
    settings: IngressSettings,
    resources: Record<ChildKind, ResourceType>,
    contexts: ContextResolver,
    secrets: CertificateSecrets,
  ) {
    this.#caches = caches;
    this.#kube = kube;
    this.#contexts = contexts;
    this.#certificates = new IngressCertificates(secrets);
    this.#writer = writer;
    this.#settings = settings;
    this.#kinds = {
      configMap: { resource: resources.configMap, cache: caches.configMaps as Cache<Owned> },
      api: { resource: resources.api, cache: caches.apis as Cache<Owned> },
      oas: { resource: resources.oas, cache: caches.oas as Cache<Owned> },
    };
  }

  /** Whether this operator serves the Ingress (its class). */
  serves(ingress: IngressObject): boolean {
    return isOurIngress(ingress, this.#settings.watchedClass, { get: (name) => this.#caches.classes.get(name), list: () => this.#caches.classes.list() });
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    const ingress = this.#caches.ingresses.get(key);
    if (!ingress || ingress.metadata.deletionTimestamp) return; // the garbage collector deletes what it owned
    const owned = (Object.keys(this.#kinds) as ChildKind[]).flatMap((kind) =>
      this.#kinds[kind].cache.byIndex(OWNER_INGRESS, ingress.metadata.uid ?? '').map((object) => ({ kind, object })),
    );
    if (!this.serves(ingress)) {
      for (const { kind, object } of owned) await this.#delete(kind, object, signal);
      const published = loadBalancerStatus(this.#settings.publishAddresses);
      if (published && canonicalJson(ingress.status?.loadBalancer) === canonicalJson(published)) {
        await this.#writer.writeStatus(IngressResources.ingress, ingress, { loadBalancer: {} }, signal); // no longer ours to publish
      }
      return;
    }
    const template = this.#template(ingress);
    if (typeof template === 'string') {
      this.#writer.event(ingress, 'Warning', 'TemplateNotFound', template);
      return;
    }
    const gateway = (await this.#contexts.resolve({ metadata: ingress.metadata, spec: { contextRef: template.spec.contextRef } }, signal)).gateway;
    const wanted = new Map<string, { kind: ChildKind; object: Owned }>();
    const changes = { created: 0, updated: 0, deleted: 0 };
    try {
      const certificates = new Map<string, CertificateResult>();
      for (const route of ingressRoutes(ingress, (ns, name) => this.#caches.services.get(`${ns}/${name}`))) {
        if (route.problem !== undefined) {
          this.#writer.event(ingress, 'Warning', 'InvalidBackend', route.problem);
          continue;
        }
        const winner = this.#olderClaimant(ingress, route);
        if (winner) {
          this.#writer.event(
            ingress,
            'Warning',
            'Conflict',
            `${describe(route)} is already served by Ingress ${objectKey(winner)} (older); not served for this Ingress`,
          );
          continue;
        }
        // One Secret read (and at most one upload, and one Event) per host and reconcile, however many paths it has.
        if (!certificates.has(route.host)) {
          const found = await this.#certificates.forHost(ingress, route.host, gateway, signal);
          certificates.set(route.host, found);
          if (found && 'problem' in found) this.#writer.event(ingress, 'Warning', 'TLSCertificate', found.problem);
        }
        const certificate = certificates.get(route.host);
        for (const { kind, object } of childObjects(ingress, route, template, certificate && 'id' in certificate ? certificate.id : undefined)) {
          const existing = this.#kinds[kind].cache.get(objectKey(object));
          if (existing && !ownedBy(existing, ingress)) {
            this.#writer.event(
              ingress,
              'Warning',
              'Conflict',
              `${describe(route)}: ${object.kind} ${objectKey(existing)} exists and is not this Ingress's; not served`,
            );
            break;
          }
          wanted.set(`${kind}/${object.metadata.name}`, { kind, object: existing ?? object });
          if (existing && sameContent(existing, object)) continue;
          await this.#kube.apply(this.#kinds[kind].resource, object, undefined, { signal });
          changes[existing ? 'updated' : 'created']++;
        }
      }
      const pending = [...wanted.values()].some((child) => child.kind !== 'configMap' && !isSynced(child.object));
      const orphans = owned.filter(({ kind, object }) => !wanted.has(`${kind}/${object.metadata.name}`));
      if (!pending) {
        for (const { kind, object } of orphans) await this.#delete(kind, object, signal);
        changes.deleted += orphans.length;
      }
      const status = loadBalancerStatus(this.#settings.publishAddresses);
      if (status) await this.#writer.writeStatus(IngressResources.ingress, ingress, { ...ingress.status, loadBalancer: status }, signal);
      if (changes.created + changes.updated + changes.deleted > 0) {
        this.#writer.event(
          ingress,
          'Normal',
          'Synced',
          `${changes.created} created, ${changes.updated} updated, ${changes.deleted} deleted; ${wanted.size} resources serve this Ingress`,
        );
      }
      return pending || (orphans.length > 0 && changes.deleted === 0) ? { requeueAfterMs: WAIT_FOR_CHILDREN_MS } : undefined;
    } catch (error) {
      if (!signal.aborted) this.#writer.event(ingress, 'Warning', 'SyncFailed', (error as Error).message);
      throw error;
    }
  }

  /** The template the Ingress names (the built-in keyless one without the annotation), or why there is none. */
  #template(ingress: IngressObject): TemplateSource | string {
    const ref = templateRefOf(ingress);
    if (!ref) return { kind: 'ApiDefinition', spec: KEYLESS };
    if ('invalid' in ref) return ref.invalid;
    const key = `${ref.namespace}/${ref.name}`;
    const object = ref.kind === 'ApiDefinition' ? this.#caches.apis.get(key) : this.#caches.oas.get(key);
    if (!object || !isTemplate(object))
      return `${ref.kind} ${key} (annotation gw.gw.io/template) ${object ? 'is not labelled gw.gw.io/template=true' : 'does not exist'}`;
    if (ref.kind === 'ApiDefinition') return { kind: 'ApiDefinition', spec: (object as ApiDefinitionObject).spec };
    const oas = object as OasApiDefinitionObject;
    const configMap = this.#caches.configMaps.get(configMapKeyOf(oas));
    const text = configMap?.data?.[oas.spec.gwOAS.configmapRef.keyName];
    if (text === undefined)
      return `GwOasApiDefinition ${key}: its document (ConfigMap ${configMapKeyOf(oas)} key ${oas.spec.gwOAS.configmapRef.keyName}) does not exist`;
    try {
      return { kind: 'GwOasApiDefinition', spec: oas.spec, document: parseOasDocument(text, `ConfigMap ${configMapKeyOf(oas)}`) };
    } catch (error) {
      return `GwOasApiDefinition ${key}: ${(error as Error).message}`;
    }
  }

  /** The oldest other Ingress served here claiming the same host and path, when it is older than this one. */
  #olderClaimant(ingress: IngressObject, route: ResolvedRoute): IngressObject | undefined {
    const serving = (candidate: IngressObject): boolean => {
      const name = `${candidate.metadata.namespace}/${childName(candidate.metadata.name, route)}`;
      const child = this.#caches.apis.get(name) ?? this.#caches.oas.get(name);
      return child !== undefined && ownedBy(child, candidate);
    };
    const older = (a: IngressObject, b: IngressObject): boolean => olderThan(a, b, serving);
    const rivals = this.#caches.ingresses
      .byIndex(CLAIMS, claimOf(route))
      .filter((other) => other.metadata.uid !== ingress.metadata.uid && !other.metadata.deletionTimestamp && this.serves(other));
    return rivals.filter((other) => older(other, ingress)).sort((a, b) => (older(a, b) ? -1 : 1))[0];
  }

  async #delete(kind: ChildKind, object: KubeObject, signal: AbortSignal): Promise<void> {
    try {
      await this.#kube.delete(this.#kinds[kind].resource, object.metadata.namespace, object.metadata.name, { signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

function describe(route: ResolvedRoute): string {
  return `host ${route.host || '*'} path ${route.listenPath} (${route.origin})`;
}

function ownedBy(child: KubeObject, ingress: IngressObject): boolean {
  return ingressControllerRef(child)?.uid === ingress.metadata.uid;
}

function sameContent(existing: Owned, desired: Owned): boolean {
  return (
    canonicalJson(existing.spec ?? existing.data) === canonicalJson(desired.spec ?? desired.data) &&
    existing.metadata.labels?.[INGRESS_LABEL] === desired.metadata.labels?.[INGRESS_LABEL] &&
    canonicalJson(existing.metadata.ownerReferences) === canonicalJson(desired.metadata.ownerReferences)
  );
}

/** An API is synced once its controller synced its current generation. */
function isSynced(child: Owned): boolean {
  const status = child.status;
  return (
    status?.latestTransaction?.status === 'Successful' && child.metadata.generation !== undefined && status.observedGeneration === child.metadata.generation
  );
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
