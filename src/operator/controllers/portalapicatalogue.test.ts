// The catalogue and APIDescription controllers as a unit, against an in-memory dashboard portal with Tyk's
// semantics (test/support/portal-fakes.ts): the entries the dashboard receives, when documents are uploaded and
// deleted (and in which order against the catalogue PUT), drift repair, the deletion rules (a listed description
// is kept with Tyk's message; a deleted catalogue is emptied), waiting on dependencies, and ce mode.
import { describe, expect, it } from 'vitest';
import { Cache } from '../../kube/cache.ts';
import { TerminalError } from '../../kube/controller.ts';
import { MgmtError } from '../../mgmt/client.ts';
import type { KubeObject } from '../../kube/object.ts';
import { FakePortal, fakeCluster, portalServices } from '../../../test/support/portal-fakes.ts';
import type { PortalLookups } from '../portal/portal-entries.ts';
import { addPortalIndexes } from '../portal/portal-indexes.ts';
import type { APIDescriptionObject, PortalAPICatalogueObject, PortalConfigObject } from '../portal/portal-resources.ts';
import type { ApiDefinitionObject, ConfigMapObject, OasApiDefinitionObject, SecurityPolicyObject } from '../cluster/resources.ts';
import { APIDescriptionReconciler } from './apidescription.ts';
import { PortalAPICatalogueReconciler } from './portalapicatalogue.ts';

const meta = (name: string) => ({ name, namespace: 'ns', uid: `uid-${name}`, generation: 1, resourceVersion: '1' });
const b64 = (text: string) => Buffer.from(text).toString('base64');

function setup(mode: 'ce' | 'pro' = 'pro') {
  const descriptions = new Cache<APIDescriptionObject>();
  const catalogues = new Cache<PortalAPICatalogueObject>();
  const configs = new Cache<PortalConfigObject>();
  addPortalIndexes({ descriptions, catalogues, configs });
  const lookups: PortalLookups = {
    policies: new Cache<SecurityPolicyObject>(),
    apis: new Cache<ApiDefinitionObject>(),
    oas: new Cache<OasApiDefinitionObject>(),
    configMaps: new Cache<ConfigMapObject>(),
  };
  lookups.policies.upsert({
    kind: 'SecurityPolicy',
    metadata: meta('gold'),
    spec: { name: 'gold' },
    status: { pol_id: 'pol-gold', latestTransaction: { status: 'Successful' } },
  });
  lookups.apis.upsert({
    kind: 'ApiDefinition',
    metadata: meta('pay'),
    spec: { name: 'pay' },
    status: { api_id: 'api-pay', latestTransaction: { status: 'Successful' } },
  } as unknown as ApiDefinitionObject);
  lookups.configMaps.upsert({ kind: 'ConfigMap', metadata: meta('pay-oas'), data: { 'oas.yaml': 'openapi: 3.0.3\n' } });
  const cluster = fakeCluster([descriptions, catalogues, configs] as unknown as Cache<KubeObject>[]);
  const portal = new FakePortal();
  const services = portalServices(portal, cluster.writer, mode);
  const catalogueReconciler = new PortalAPICatalogueReconciler(catalogues, descriptions, lookups, services);
  const descriptionReconciler = new APIDescriptionReconciler(descriptions, catalogues, lookups, services);
  const description = (name: string, spec: Partial<APIDescriptionObject['spec']> = {}) =>
    descriptions.upsert({
      kind: 'APIDescription',
      metadata: meta(name),
      spec: {
        name: `${name} API`,
        show: true,
        policyRef: { name: 'gold' },
        apiRef: { kind: 'ApiDefinition', name: 'pay' },
        documentation: { doc_type: 'swagger', configMapRef: { name: 'pay-oas', keyName: 'oas.yaml' } },
        ...spec,
      },
    });
  const catalogue = (names: string[], name = 'main') =>
    catalogues.upsert({
      kind: 'PortalAPICatalogue',
      metadata: meta(name),
      spec: { email: 'portal@example.com', apis: names.map((name) => ({ apiDescriptionRef: { name } })) },
    });
  return { descriptions, catalogues, lookups, cluster, portal, catalogueReconciler, descriptionReconciler, description, catalogue };
}

const ready = (o: { status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } } | undefined) =>
  o?.status?.conditions?.find((c) => c.type === 'Ready');

describe('PortalAPICatalogue controller', () => {
  it('creates the organisation catalogue with one entry per description: policy, API, uploaded document; id in status', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    expect(await t.catalogueReconciler.reconcile('ns/main')).toEqual({ requeueAfterMs: 60_000 });
    expect(t.portal.calls).toEqual(['GET catalogue', 'POST catalogue', 'POST documentation doc-2', 'PUT catalogue 1', 'GET catalogue']);
    const stored = t.portal.catalogue!;
    expect(stored).toMatchObject({ id: 'cat-1', org_id: 'org-1', email: 'portal@example.com' });
    expect(stored.apis).toEqual([{ name: 'pay API', show: true, policy_id: 'pol-gold', api_id: 'api-pay', documentation: 'doc-2', version: 'v2' }]);
    expect(t.portal.documents.get('doc-2')).toEqual({ api_id: 'api-pay', doc_type: 'swagger', documentation: b64('openapi: 3.0.3\n') });
    const status = t.catalogues.get('ns/main')!.status!;
    expect(status.id).toBe('cat-1');
    expect(ready(t.catalogues.get('ns/main'))).toMatchObject({ status: 'True', reason: 'Synced' });
    expect(status.latestTransaction?.status).toBe('Successful');
    expect(t.cluster.events.map((e) => e.reason)).toEqual(['Created']);
  });

  it('writes nothing when in sync, and uploads a document again only when it changed: new one first, old one deleted after the PUT', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.catalogueReconciler.reconcile('ns/main');
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual(['GET catalogue', 'GET documentation doc-2']);

    t.lookups.configMaps.upsert({ kind: 'ConfigMap', metadata: { ...meta('pay-oas'), resourceVersion: '2' }, data: { 'oas.yaml': 'openapi: 3.1.0\n' } });
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual(['GET catalogue', 'POST documentation doc-3', 'PUT catalogue 1', 'GET catalogue', 'DELETE documentation doc-2']);
    expect((t.portal.catalogue!.apis as { documentation: string }[])[0]!.documentation).toBe('doc-3');
    expect([...t.portal.documents.keys()]).toEqual(['doc-3']);
    expect(t.catalogues.get('ns/main')!.status!.documents).toMatchObject([{ apiDescription: 'ns/pay', id: 'doc-3' }]);
  });

  it('puts back a catalogue changed by hand on the dashboard (drift repair)', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.catalogueReconciler.reconcile('ns/main');
    const synced = structuredClone(t.portal.catalogue);
    t.portal.catalogue = { ...t.portal.catalogue!, apis: [] };
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    // Its document is no longer referred to there: uploaded again, and the one we uploaded before deleted.
    expect(t.portal.calls).toEqual(['GET catalogue', 'POST documentation doc-3', 'PUT catalogue 1', 'GET catalogue', 'DELETE documentation doc-2']);
    expect(t.portal.catalogue).toEqual({ ...synced, apis: [{ ...(synced!.apis as object[])[0], documentation: 'doc-3' }] });
    expect([...t.portal.documents.keys()]).toEqual(['doc-3']);
    t.portal.catalogue = { ...t.portal.catalogue, email: 'changed-by-hand@example.com' };
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual(['GET catalogue', 'GET documentation doc-3', 'PUT catalogue 1', 'GET catalogue']);
    expect(t.portal.catalogue?.email).toBe('portal@example.com');

    // A document deleted by hand is uploaded again and the entry names the new one.
    t.portal.documents.delete('doc-3');
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual([
      'GET catalogue',
      'GET documentation doc-3',
      'POST documentation doc-4',
      'PUT catalogue 1',
      'GET catalogue',
      'DELETE documentation doc-3',
    ]);
    expect((t.portal.catalogue.apis as { documentation: string }[])[0]!.documentation).toBe('doc-4');
  });

  it('waits, naming what is missing: an APIDescription, or a policy not synced yet; nothing is written to the dashboard', async () => {
    const t = setup();
    t.catalogue(['pay']);
    expect(await t.catalogueReconciler.reconcile('ns/main')).toEqual({ requeueAfterMs: 30_000 });
    expect(ready(t.catalogues.get('ns/main'))).toMatchObject({
      status: 'False',
      reason: 'APIDescriptionNotFound',
      message: 'APIDescription ns/pay (spec.apis) does not exist',
    });
    t.description('pay');
    t.lookups.policies.upsert({ kind: 'SecurityPolicy', metadata: meta('gold'), spec: { name: 'gold' }, status: {} });
    await t.catalogueReconciler.reconcile('ns/main');
    expect(ready(t.catalogues.get('ns/main'))).toMatchObject({ status: 'False', reason: 'PolicyNotSynced' });
    expect(t.portal.calls).toEqual([]);
    expect(t.cluster.events.map((e) => e.type)).toEqual(['Warning', 'Warning']);
  });

  it("refuses an entry without a policy with Tyk's message (terminal until it changes)", async () => {
    const t = setup();
    t.description('pay', { policyRef: undefined });
    t.catalogue(['pay']);
    await expect(t.catalogueReconciler.reconcile('ns/main')).rejects.toBeInstanceOf(TerminalError);
    expect(ready(t.catalogues.get('ns/main'))?.message).toMatch(/^"pay API" missing policy_id/);
  });

  it('reports a document the dashboard refuses as GatewayRejected with its message (terminal), and removes documents uploaded for a write that failed', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    t.portal.failNext.set('createDocumentation', new MgmtError('invalid', 'documentation: the decoded document is not Swagger 2.0 or OpenAPI 3.x', 400));
    await expect(t.catalogueReconciler.reconcile('ns/main')).rejects.toBeInstanceOf(TerminalError);
    expect(ready(t.catalogues.get('ns/main'))).toMatchObject({
      status: 'False',
      reason: 'GatewayRejected',
      message: 'documentation: the decoded document is not Swagger 2.0 or OpenAPI 3.x',
    });
    expect(t.catalogues.get('ns/main')!.status!.latestTransaction).toMatchObject({
      status: 'Failed',
      error: 'documentation: the decoded document is not Swagger 2.0 or OpenAPI 3.x',
    });

    t.portal.failNext.set('putCatalogue', new MgmtError('unavailable', 'dashboard at http://dashboard.test unreachable (ECONNRESET)'));
    await expect(t.catalogueReconciler.reconcile('ns/main')).rejects.toBeInstanceOf(MgmtError);
    expect(ready(t.catalogues.get('ns/main'))).toMatchObject({ status: 'False', reason: 'GatewayUnavailable' });
    expect(t.portal.documents.size).toBe(0);
    expect(t.portal.calls.slice(-2)).toEqual(['PUT catalogue 1', 'DELETE documentation doc-2']);
  });

  it('deletion empties the catalogue: its documents deleted, then the catalogue PUT without entries, then the finalizer', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.catalogueReconciler.reconcile('ns/main');
    t.cluster.deleting(t.catalogues, 'ns/main');
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual(['GET catalogue', 'DELETE documentation doc-2', 'PUT catalogue 0']);
    expect(t.portal.catalogue).toEqual({ id: 'cat-1', org_id: 'org-1', apis: [] });
    expect(t.catalogues.get('ns/main')).toBeUndefined();
  });

  it('deletion of a catalogue whose entries never reached the dashboard (its first PUT unanswered) calls nothing and releases it', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    t.portal.failNext.set('putCatalogue', new MgmtError('unavailable', 'dashboard at http://dashboard.test unreachable (ECONNRESET)'));
    await expect(t.catalogueReconciler.reconcile('ns/main')).rejects.toBeInstanceOf(MgmtError);
    expect(t.catalogues.get('ns/main')!.metadata.finalizers).toEqual(['finalizers.gw.io/portalapicatalogue']);
    t.cluster.deleting(t.catalogues, 'ns/main');
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual([]);
    expect(t.catalogues.get('ns/main')).toBeUndefined();
  });

  it('deletion of a written catalogue annotated gw.gw.io/skip-gateway-deletion leaves the dashboard alone, with a Warning Event', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.catalogueReconciler.reconcile('ns/main');
    const synced = t.catalogues.get('ns/main')!;
    t.catalogues.upsert({ ...synced, metadata: { ...synced.metadata, annotations: { 'gw.gw.io/skip-gateway-deletion': 'true' } } });
    t.cluster.deleting(t.catalogues, 'ns/main');
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.portal.calls).toEqual([]);
    expect(t.portal.catalogue?.apis).toHaveLength(1);
    expect(t.catalogues.get('ns/main')).toBeUndefined();
    expect(t.cluster.events.at(-1)).toMatchObject({ type: 'Warning', reason: 'GatewayCopyKept' });
  });

  it('one catalogue per organisation: a second one says which owns it and never touches it, even deleted; it takes over when the owner goes', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.catalogueReconciler.reconcile('ns/main');
    t.catalogue([], 'second');
    const before = structuredClone(t.portal.catalogue);
    t.portal.calls.length = 0;
    await t.catalogueReconciler.reconcile('ns/second');
    expect(ready(t.catalogues.get('ns/second'))).toMatchObject({
      status: 'False',
      reason: 'OrganisationTaken',
      message:
        'organisation org-1 on http://dashboard.test has its catalogue from PortalAPICatalogue ns/main (the oldest): one per organisation; this one is not synced',
    });
    expect(t.catalogues.get('ns/second')!.metadata.finalizers).toBeUndefined();
    t.cluster.deleting(t.catalogues, 'ns/second');
    await t.catalogueReconciler.reconcile('ns/second');
    expect(t.portal.calls).toEqual([]);
    expect(t.portal.catalogue).toEqual(before);

    t.catalogue([], 'second');
    t.cluster.deleting(t.catalogues, 'ns/main');
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.catalogues.get('ns/main')).toBeUndefined();
    await t.catalogueReconciler.reconcile('ns/second');
    expect(ready(t.catalogues.get('ns/second'))).toMatchObject({ status: 'True', reason: 'Synced' });
  });

  it('in ce mode: Ready=False LicensedModeRequired with a Warning Event, no dashboard call, no finalizer, a terminal outcome', async () => {
    const t = setup('ce');
    t.description('pay');
    t.catalogue(['pay']);
    await expect(t.catalogueReconciler.reconcile('ns/main')).rejects.toThrow(TerminalError);
    await expect(t.descriptionReconciler.reconcile('ns/pay')).rejects.toThrow(TerminalError);
    for (const object of [t.catalogues.get('ns/main'), t.descriptions.get('ns/pay')]) {
      expect(ready(object)).toMatchObject({ status: 'False', reason: 'LicensedModeRequired' });
      expect(ready(object)?.message).toMatch(/needs licensed mode/);
    }
    expect(t.catalogues.get('ns/main')!.metadata.finalizers).toBeUndefined();
    expect(t.cluster.events.filter((e) => e.reason === 'LicensedModeRequired').map((e) => e.type)).toEqual(['Warning', 'Warning']);
    expect(t.portal.calls).toEqual([]);
  });
});

describe('APIDescription controller', () => {
  it('is Ready when what it names resolves, and lists the catalogues using it', async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.descriptionReconciler.reconcile('ns/pay');
    const d = t.descriptions.get('ns/pay')!;
    expect(ready(d)).toMatchObject({
      status: 'True',
      reason: 'Resolved',
      message: 'policy pol-gold, API api-pay, swagger documentation; listed in PortalAPICatalogue ns/main',
    });
    expect(d.status?.linked_by_catalogues).toEqual([{ name: 'main', namespace: 'ns', kind: 'PortalAPICatalogue' }]);
    expect(d.metadata.finalizers).toEqual(['finalizers.gw.io/portalapidescription']);
  });

  it('waits for a ConfigMap document that does not exist yet', async () => {
    const t = setup();
    t.description('pay', { documentation: { configMapRef: { name: 'missing', keyName: 'oas.yaml' } } });
    expect(await t.descriptionReconciler.reconcile('ns/pay')).toEqual({ requeueAfterMs: 30_000 });
    expect(ready(t.descriptions.get('ns/pay'))).toMatchObject({ status: 'False', reason: 'ConfigMapNotFound' });
  });

  it("deletion is refused while a catalogue lists it (Tyk's message), and proceeds once the catalogue is gone", async () => {
    const t = setup();
    t.description('pay');
    t.catalogue(['pay']);
    await t.descriptionReconciler.reconcile('ns/pay');
    await t.catalogueReconciler.reconcile('ns/main');
    t.cluster.deleting(t.descriptions, 'ns/pay');
    expect(await t.descriptionReconciler.reconcile('ns/pay')).toEqual({ requeueAfterMs: 30_000 });
    expect(ready(t.descriptions.get('ns/pay'))).toMatchObject({
      status: 'False',
      reason: 'DeletionBlocked',
      message: 'Unable to delete api description due to portal catalogue dependency "ns/main"',
    });
    expect(t.cluster.events.at(-1)).toMatchObject({ type: 'Warning', reason: 'DeletionBlocked' });

    t.cluster.deleting(t.catalogues, 'ns/main');
    await t.catalogueReconciler.reconcile('ns/main');
    expect(t.catalogues.get('ns/main')).toBeUndefined();
    await t.descriptionReconciler.reconcile('ns/pay');
    expect(t.descriptions.get('ns/pay')).toBeUndefined();
    expect(t.portal.catalogue?.apis).toEqual([]);
  });
});
