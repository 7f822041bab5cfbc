// PortalAPICatalogue: the organisation's classic portal catalogue on the dashboard (one per organisation; there is
// no catalogue DELETE). A reconcile (reference portal.md §1, with Tyk's waste removed):
//   1. every entry's APIDescription resolved (portal-entries.ts: policy synced, API synced, ConfigMap document);
//      a missing one: Ready=False APIDescriptionNotFound, retried and reconciled again when it appears
//   2. the dashboard's catalogue read (GET); none yet: created (POST {org_id}); its id goes in status.id
//   3. each entry's document uploaded (POST documentation) only when it changed since the last upload, or the
//      dashboard's catalogue no longer refers to it, or it was deleted there (one GET each) — Tyk uploads
//      every document on every reconcile
//   4. the catalogue PUT unless it is in sync (what we would send is what we last sent, and the dashboard's copy is
//      what it answered then); then the documents it referred to or we uploaded before that it no longer refers to
//      are deleted (after the PUT, so the catalogue never names a deleted document)
// Several catalogues for one organisation: the oldest owns it, the others say so (portal-ownership.ts).
// A synced catalogue is compared with the dashboard's copy every resync period: a change made there by hand is
// put back (drift repair). Deletion empties it: its documents deleted, then PUT {id, org_id} with no entries; a
// catalogue never written to a dashboard (no status.id), or annotated gw.gw.io/skip-gateway-deletion=true, goes
// without any dashboard call.
import { contentHash } from '../../domain/canonical-json.ts';
import type { Cache } from '../../kube/cache.ts';
import type { ReconcileResult, Reconciler } from '../../kube/controller.ts';
import { keyOf } from '../../kube/object.ts';
import type { Definition } from '../../mgmt/client.ts';
import type { ResolvedContext } from '../sync/context.ts';
import { SKIP_GATEWAY_DELETION_ANNOTATION, skipsGatewayDeletion } from '../sync/deletion.ts';
import { WaitingError } from '../sync/errors.ts';
import type { PortalClient } from '../portal/portal-client.ts';
import { resolveDescription, type PortalLookups, type ResolvedDescription } from '../portal/portal-entries.ts';
import { PORTAL_FINALIZERS, PortalResources, type APIDescriptionObject, type PortalAPICatalogueObject } from '../portal/portal-resources.ts';
import { catalogueEntry } from '../translate/portal.ts';
import type { GatewayEnv } from '../sync/gateways.ts';
import { PortalStatus, type PortalServices } from './portal-lifecycle.ts';
import { organisationOwner, yieldToOwner } from './portal-ownership.ts';

type Document = { apiDescription: string; id: string; hash: string };

/** What this process last wrote for a catalogue, newer than a cached status right after the write. */
interface Written {
  uid: string | undefined;
  desiredHash: string;
  gatewayHash: string;
  documents: Document[];
}

export class PortalAPICatalogueReconciler implements Reconciler {
  readonly #catalogues: Cache<PortalAPICatalogueObject>;
  readonly #descriptions: Cache<APIDescriptionObject>;
  readonly #lookups: PortalLookups;
  readonly #s: PortalServices;
  readonly #status: PortalStatus;
  readonly #written = new Map<string, Written>();

  constructor(catalogues: Cache<PortalAPICatalogueObject>, descriptions: Cache<APIDescriptionObject>, lookups: PortalLookups, services: PortalServices) {
    this.#catalogues = catalogues;
    this.#descriptions = descriptions;
    this.#lookups = lookups;
    this.#s = services;
    this.#status = new PortalStatus(services, PortalResources.catalogue, true);
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const catalogue = this.#catalogues.get(key);
    if (!catalogue) {
      this.#written.delete(key);
      return;
    }
    const { writer } = this.#s;
    const keep = { ...(catalogue.status?.id ? { id: catalogue.status.id } : {}) };
    if (catalogue.metadata.deletionTimestamp && !writer.hasFinalizer(catalogue, PORTAL_FINALIZERS.catalogue)) return;
    const neverWritten = !catalogue.status?.id && !this.#written.has(key);
    if (catalogue.metadata.deletionTimestamp && (neverWritten || skipsGatewayDeletion(catalogue))) {
      // Nothing of it on a dashboard to empty, or the user gives the dashboard's copy up (deletion.ts): no call.
      this.#written.delete(key);
      await writer.removeFinalizer(PortalResources.catalogue, catalogue, PORTAL_FINALIZERS.catalogue, signal);
      if (!neverWritten)
        writer.event(
          catalogue,
          'Warning',
          'GatewayCopyKept',
          `PortalAPICatalogue released by annotation ${SKIP_GATEWAY_DELETION_ANNOTATION} without emptying catalogue ${catalogue.status?.id ?? ''} on its dashboard`,
        );
      return;
    }
    const dashboard = await this.#status.dashboard(catalogue, keep, signal);
    if ('result' in dashboard) {
      // Nothing of it is on a dashboard (ce mode): a deletion has nothing to empty.
      if (catalogue.metadata.deletionTimestamp && dashboard.ce) {
        await writer.removeFinalizer(PortalResources.catalogue, catalogue, PORTAL_FINALIZERS.catalogue, signal);
      }
      return dashboard.result;
    }
    const { env } = dashboard.context.gateway;
    const owner = await organisationOwner(this.#catalogues, catalogue, dashboard.context, orgOf, this.#s.contexts, signal);
    const yielded = await yieldToOwner(
      owner,
      catalogue,
      'catalogue',
      orgOf(catalogue, env),
      env.url,
      PortalResources.catalogue,
      PORTAL_FINALIZERS.catalogue,
      { writer, status: this.#status },
      signal,
    );
    if (yielded) return yielded.result;
    const portal = this.#s.portal.of(dashboard.context.gateway);
    try {
      if (catalogue.metadata.deletionTimestamp) {
        this.#written.delete(key);
        await this.#empty(catalogue, portal, dashboard.context, signal);
        return;
      }
      await writer.addFinalizer(PortalResources.catalogue, catalogue, PORTAL_FINALIZERS.catalogue, signal);
      return await this.#sync(key, catalogue, portal, dashboard.context, signal);
    } catch (error) {
      return this.#status.failed(catalogue, error, keep, signal);
    }
  }

  async #sync(
    key: string,
    catalogue: PortalAPICatalogueObject,
    portal: PortalClient,
    context: ResolvedContext,
    signal: AbortSignal | undefined,
  ): Promise<ReconcileResult> {
    const namespace = catalogue.metadata.namespace;
    const entries = (catalogue.spec.apis ?? []).map((inline) => {
      const descriptionKey = keyOf(inline.apiDescriptionRef.namespace || namespace, inline.apiDescriptionRef.name);
      const description = this.#descriptions.get(descriptionKey);
      if (!description) throw new WaitingError(`APIDescription ${descriptionKey} (spec.apis) does not exist`, 'APIDescriptionNotFound');
      const resolved = resolveDescription(this.#lookups, description, catalogue, {
        ref: inline.policyRef,
        namespace,
        policyId: (inline as { policy_id?: unknown }).policy_id,
      });
      return { inline, description, descriptionKey, resolved };
    });
    const orgId = orgOf(catalogue, context.gateway.env);
    const current = await portal.getCatalogue(signal);
    const id = current ? String(current.id) : await portal.createCatalogue(orgId, signal);
    const referenced = new Set(documentIdsOf(current));
    const written = this.#written.get(key);
    const previous = written !== undefined && written.uid === catalogue.metadata.uid ? written.documents : (catalogue.status?.documents ?? []);

    const documents: Document[] = [];
    const uploaded: string[] = [];
    let payload: Definition;
    try {
      const apis = [];
      for (const { inline, description, descriptionKey, resolved } of entries) {
        const document = await this.#document(descriptionKey, resolved, previous, referenced, portal, uploaded, signal);
        if (document) documents.push(document);
        apis.push(catalogueEntry(inline, description.spec, { policyId: resolved.policyId, apiId: resolved.apiId, documentationId: document?.id }));
      }
      payload = { id, org_id: orgId, ...(catalogue.spec.email ? { email: catalogue.spec.email } : {}), apis };
      const desiredHash = contentHash(payload);
      const currentHash = current ? contentHash(current) : undefined;
      const status = catalogue.status;
      const matches = (crd: string | undefined, gw: string | undefined) => crd === desiredHash && gw === currentHash;
      const inSync =
        currentHash !== undefined &&
        (matches(status?.latestCRDSpecHash, status?.latestGwSpecHash) ||
          (written !== undefined && written.uid === catalogue.metadata.uid && matches(written.desiredHash, written.gatewayHash)));
      if (inSync) {
        await this.#synced(catalogue, id, documents, desiredHash, currentHash, entries.length, false, signal);
        return { requeueAfterMs: this.#s.resyncMs };
      }
      await portal.putCatalogue(payload, signal);
      const stored = await portal.getCatalogue(signal);
      const storedHash = stored ? contentHash(stored) : desiredHash;
      this.#written.set(key, { uid: catalogue.metadata.uid, desiredHash, gatewayHash: storedHash, documents });
      // Orphans: what the dashboard's catalogue referred to, and what we uploaded before (a catalogue emptied by
      // hand no longer refers to our documents), minus what the catalogue refers to now.
      const kept = new Set(documents.map((d) => d.id));
      for (const orphan of new Set([...referenced, ...previous.map((d) => d.id)])) if (!kept.has(orphan)) await portal.deleteDocumentation(orphan, signal);
      await this.#synced(catalogue, id, documents, desiredHash, storedHash, entries.length, true, signal);
      this.#s.writer.event(
        catalogue,
        'Normal',
        current ? 'Updated' : 'Created',
        `catalogue ${id} ${current ? 'updated' : 'created'} on ${context.gateway.env.url} with ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`,
      );
      return { requeueAfterMs: this.#s.resyncMs };
    } catch (error) {
      // Documents uploaded for a catalogue that was not written would never be referenced: remove them.
      for (const doc of uploaded) await portal.deleteDocumentation(doc, signal).catch(() => false);
      throw error;
    }
  }

  /** The entry's document on the dashboard: the last upload when unchanged, still referenced and there, else a new one. */
  async #document(
    descriptionKey: string,
    resolved: ResolvedDescription,
    previous: Document[],
    referenced: Set<string>,
    portal: PortalClient,
    uploaded: string[],
    signal: AbortSignal | undefined,
  ): Promise<Document | undefined> {
    if (!resolved.document) return undefined;
    const hash = contentHash(resolved.document);
    const last = previous.find((d) => d.apiDescription === descriptionKey && d.hash === hash && referenced.has(d.id));
    if (last && (await portal.hasDocumentation(last.id, signal))) return last;
    const id = await portal.createDocumentation(resolved.document, signal);
    uploaded.push(id);
    return { apiDescription: descriptionKey, id, hash };
  }

  async #synced(
    catalogue: PortalAPICatalogueObject,
    id: string,
    documents: Document[],
    desiredHash: string,
    gatewayHash: string,
    count: number,
    wrote: boolean,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const status = catalogue.status;
    const transaction = wrote || status?.latestTransaction?.status !== 'Successful' ? 'Successful' : undefined;
    await this.#status.write(
      catalogue,
      { status: 'True', reason: 'Synced', message: `catalogue ${id} with ${count} entr${count === 1 ? 'y' : 'ies'}` },
      { id, documents, latestCRDSpecHash: desiredHash, latestGwSpecHash: gatewayHash },
      transaction,
      signal,
    );
  }

  /** Deletion: the catalogue's documents deleted, then the catalogue emptied (Tyk\'s way), then the finalizer. */
  async #empty(catalogue: PortalAPICatalogueObject, portal: PortalClient, context: ResolvedContext, signal: AbortSignal | undefined): Promise<void> {
    const current = await portal.getCatalogue(signal);
    if (current) {
      for (const doc of documentIdsOf(current)) await portal.deleteDocumentation(doc, signal);
      await portal.putCatalogue({ id: current.id, org_id: current.org_id ?? catalogue.spec.org_id ?? context.gateway.env.org, apis: [] }, signal);
    }
    await this.#s.writer.removeFinalizer(PortalResources.catalogue, catalogue, PORTAL_FINALIZERS.catalogue, signal);
    this.#s.writer.event(
      catalogue,
      'Normal',
      'Deleted',
      `catalogue ${typeof current?.id === 'string' ? current.id : (catalogue.status?.id ?? '')} emptied on ${context.gateway.env.url}`,
    );
  }
}

/** The organisation a catalogue is for: spec.org_id, else its context's. */
function orgOf(catalogue: PortalAPICatalogueObject, env: GatewayEnv): string {
  return catalogue.spec.org_id ?? env.org;
}

function documentIdsOf(catalogue: Definition | undefined): string[] {
  const apis = Array.isArray(catalogue?.apis) ? (catalogue.apis as { documentation?: unknown }[]) : [];
  return [...new Set(apis.flatMap((a) => (typeof a.documentation === 'string' && a.documentation ? [a.documentation] : [])))];
}
