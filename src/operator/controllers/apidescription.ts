// APIDescription: the classic portal documentation of an API. It is stored on the dashboard only as an entry (and a
// document) of the PortalAPICatalogues listing it, which the catalogue controller writes and repairs; this
// controller checks what the description names (policyRef synced, apiRef synced, the ConfigMap document present:
// portal-entries.ts, the same rules the catalogue applies), reports it in Ready, lists the catalogues using it in
// status.linked_by_catalogues, and holds its finalizer: deleting it is refused while a catalogue lists it, with
// Tyk's message, until the catalogue drops it or is deleted (an empty catalogue). In ce mode it is
// Ready=False LicensedModeRequired.
import type { Cache } from '../../kube/cache.ts';
import type { ReconcileResult, Reconciler } from '../../kube/controller.ts';
import { keyOf } from '../../kube/object.ts';
import { resolveDescription, type PortalLookups } from '../portal/portal-entries.ts';
import { DESCRIPTIONS } from '../portal/portal-indexes.ts';
import { PORTAL_FINALIZERS, PortalResources, type APIDescriptionObject, type PortalAPICatalogueObject } from '../portal/portal-resources.ts';
import { PORTAL_WAIT_MS, PortalStatus, type PortalServices } from './portal-lifecycle.ts';

export class APIDescriptionReconciler implements Reconciler {
  readonly #descriptions: Cache<APIDescriptionObject>;
  readonly #catalogues: Cache<PortalAPICatalogueObject>;
  readonly #lookups: PortalLookups;
  readonly #s: PortalServices;
  readonly #status: PortalStatus;

  constructor(descriptions: Cache<APIDescriptionObject>, catalogues: Cache<PortalAPICatalogueObject>, lookups: PortalLookups, services: PortalServices) {
    this.#descriptions = descriptions;
    this.#catalogues = catalogues;
    this.#lookups = lookups;
    this.#s = services;
    this.#status = new PortalStatus(services, PortalResources.apiDescription, false);
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const description = this.#descriptions.get(key);
    if (!description) return;
    const listedBy = this.#catalogues
      .byIndex(DESCRIPTIONS, key)
      .map((c) => ({ name: c.metadata.name, namespace: c.metadata.namespace ?? '', kind: 'PortalAPICatalogue' }))
      .sort((a, b) => keyOf(a.namespace, a.name).localeCompare(keyOf(b.namespace, b.name)));
    const kindStatus = { linked_by_catalogues: listedBy };
    const { writer } = this.#s;

    if (description.metadata.deletionTimestamp) {
      if (!writer.hasFinalizer(description, PORTAL_FINALIZERS.apiDescription)) return;
      if (listedBy.length > 0) {
        const message = `Unable to delete api description due to portal catalogue dependency ${listedBy.map((c) => `"${keyOf(c.namespace, c.name)}"`).join(', ')}`;
        await this.#status.write(description, { status: 'False', reason: 'DeletionBlocked', message }, kindStatus, undefined, signal);
        return { requeueAfterMs: PORTAL_WAIT_MS };
      }
      await writer.removeFinalizer(PortalResources.apiDescription, description, PORTAL_FINALIZERS.apiDescription, signal);
      return;
    }
    await writer.addFinalizer(PortalResources.apiDescription, description, PORTAL_FINALIZERS.apiDescription, signal);
    const dashboard = await this.#status.dashboard(description, kindStatus, signal);
    if ('result' in dashboard) return dashboard.result;

    let resolved;
    try {
      resolved = resolveDescription(this.#lookups, description, description);
    } catch (error) {
      return this.#status.failed(description, error, kindStatus, signal);
    }
    const parts = [
      `policy ${resolved.policyId}`,
      ...(resolved.apiId ? [`API ${resolved.apiId}`] : []),
      ...(resolved.document ? [`${resolved.document.doc_type} documentation`] : ['no documentation']),
    ];
    const listed =
      listedBy.length > 0
        ? `listed in PortalAPICatalogue ${listedBy.map((c) => keyOf(c.namespace, c.name)).join(', ')}`
        : 'not listed in any PortalAPICatalogue';
    await this.#status.write(description, { status: 'True', reason: 'Resolved', message: `${parts.join(', ')}; ${listed}` }, kindStatus, undefined, signal);
  }
}
