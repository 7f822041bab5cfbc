// The portal kinds in licensed mode, every part real: the control plane, the operator in pro mode, and a dashboard
// on a real PostgreSQL. config/samples/portal applied with kubectl: the catalogue (its dashboard id in the ID
// column), its entry and the entry's documentation appear through /api/portal/catalogue, and the configuration
// through /api/portal/configuration; a documentation update reaches the dashboard; changes made on the dashboard
// by hand are put back (drift repair); deletion ordering holds: an APIDescription a catalogue lists is kept (Tyk's
//  message), and so is the SecurityPolicy it publishes, until the catalogue is deleted, which empties the
// dashboard's catalogue; deleting a
// PortalConfig keeps the dashboard's configuration. Nothing reaches another organisation, except through an
// OperatorContext naming it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { installCrds } from '../../support/crds.ts';
import { ALL_WRITE, createOrg, matching, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import type { RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { startPostgres } from '../../support/postgres.ts';
import { events, get, manifest, ready, synced, waitFor, type Resource } from '../../support/resources.ts';
import { waitUntil } from '../../support/wait.ts';

interface Catalogue {
  id: string;
  org_id: string;
  email?: string;
  apis: { name: string; policy_id: string; api_id?: string; documentation?: string; show?: boolean }[];
}

const SAMPLES = join(REPO_ROOT, 'config', 'samples', 'portal');

describe('portal kinds in licensed mode (dashboard on PostgreSQL)', () => {
  const ns = useNamespace('portal-pro');
  let dashboard: RunningDashboard;
  let org: TestOrg;
  let other: TestOrg;
  let operatorKey: string;

  beforeAll(async () => {
    await installCrds();
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('portal'), allow_explicit_policy_id: true, enable_duplicate_slugs: true });
    org = await createOrg(dashboard, 'Portal Org');
    other = await createOrg(dashboard, 'Other Org');
    operatorKey = await org.user(ALL_WRITE, { system: true });
    // As in production: only the operator's system user writes an operator-managed organisation's portal objects.
    expect((await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true })).status).toBe(200);
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  const catalogue = async (who: TestOrg = org): Promise<Catalogue | undefined> => {
    const answer = await who.call('GET', '/api/portal/catalogue');
    return answer.status === 200 ? answer.json<Catalogue>() : undefined;
  };
  const configuration = async (): Promise<Record<string, unknown>> => (await org.call('GET', '/api/portal/configuration')).json<Record<string, unknown>>();
  const until = async <T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> => {
    let last: T | undefined;
    await waitUntil(
      () => `${what}; last: ${JSON.stringify(last)}`,
      async () => check((last = await read())),
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    return last!;
  };

  // One namespace per test (useNamespace): the steps share one, so they are one test, in order.
  it('publishes, updates, repairs and deletes the catalogue, its documentation and the configuration', async () => {
    // The operator only needs the dashboard: GW_URL is the dashboard's (startOperator's gateway is its default URL).
    await startOperator({
      gateway: { controlUrl: dashboard.url } as RunningGateway,
      namespace: ns.name,
      env: { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: operatorKey, GW_ORG: org.id, GW_DRIFT_PERIOD: '1' },
    });

    // 1. Published.
    await kubectl(['apply', '-n', ns.name, '-f', SAMPLES]);
    for (const [kind, name] of [
      ['apidefinition', 'payments'],
      ['securitypolicy', 'payments-developer'],
      ['portalapicatalogue', 'catalogue'],
      ['portalconfig', 'portal'],
    ] as const)
      await waitFor(kind, ns.name, name, synced);
    const description = await waitFor('apidescription', ns.name, 'payments', (r) => ready(r)?.status === 'True');
    expect(ready(description)?.message).toContain(`listed in PortalAPICatalogue ${ns.name}/catalogue`);

    const policy = await get('securitypolicy', ns.name, 'payments-developer');
    const api = await get('apidefinition', ns.name, 'payments');
    const cr = (await get('portalapicatalogue', ns.name, 'catalogue'))!;
    const stored = (await catalogue())!;
    expect(stored.id).toBe(cr.status?.id);
    expect(stored).toMatchObject({ org_id: org.id, email: 'portal-admin@example.com' });
    expect(stored.apis).toEqual([
      expect.objectContaining({ name: 'Payments', show: true, policy_id: policy?.status?.pol_id, api_id: api?.status?.api_id, documentation: matching(/.+/) }),
    ]);
    const document = async (id: string) => org.call('GET', `/api/portal/documentation/${id}`);
    const firstDoc = (await document(stored.apis[0]!.documentation!)).json<{ api_id: string; doc_type: string; documentation: string }>();
    expect(firstDoc).toMatchObject({ api_id: api?.status?.api_id, doc_type: 'swagger' });
    expect(Buffer.from(firstDoc.documentation, 'base64').toString('utf8')).toContain('title: Payments\n');
    expect((await other.call('GET', `/api/portal/documentation/${stored.apis[0]!.documentation!}`)).status).toBe(404);
    const table = (await kubectl(['get', 'portalapicatalogues', '-n', ns.name])).stdout.split('\n');
    expect(table[0]).toMatch(/^NAME\s+ID\s+READY\s+REASON\s+AGE$/);
    expect(table[1]).toMatch(new RegExp(`^catalogue\\s+${stored.id}\\s+True\\s+Synced\\s`));

    const config = (await get('portalconfig', ns.name, 'portal'))!;
    expect(await configuration()).toMatchObject({
      id: config.status?.id,
      require_key_approval: true,
      signup_fields: ['company'],
      key_request_fields: ['use_case'],
    });
    expect((await events(ns.name, 'catalogue')).map((e) => e.reason)).toContain('Created');
    // The other organisation has nothing of it.
    expect((await catalogue(other))?.apis ?? []).toEqual([]);

    // 2. A documentation update reaches the dashboard as a new document.
    const before = (await catalogue())!.apis[0]!.documentation!;
    await kubectl([
      'patch',
      'configmap',
      'payments-openapi',
      '-n',
      ns.name,
      '--type=merge',
      '-p',
      JSON.stringify({ data: { 'openapi.yaml': 'openapi: 3.0.3\ninfo: {title: Payments v2, version: 2.0.0}\npaths: {}\n' } }),
    ]);
    const after = await until(
      'the entry to name a new document',
      catalogue,
      (c) => c?.apis[0]?.documentation !== undefined && c.apis[0].documentation !== before,
    );
    expect(after?.apis).toHaveLength(1);
    const updated = await waitFor(
      'portalapicatalogue',
      ns.name,
      'catalogue',
      (r) => (r?.status?.documents as { id: string }[] | undefined)?.[0]?.id === after?.apis[0]?.documentation,
    );
    expect(synced(updated)).toBe(true);
    const newDoc = (await document(after!.apis[0]!.documentation!)).json<{ documentation: string }>();
    expect(Buffer.from(newDoc.documentation, 'base64').toString('utf8')).toContain('title: Payments v2');
    expect((await document(before)).status).toBe(404);

    // 3. What is changed by hand on the dashboard is put back (drift repair). Humans cannot write there in an
    //    operator-managed organisation; the change is made with the operator's own key (another tool using it).
    expect((await org.call('PUT', '/api/portal/configuration', await configuration())).status).toBe(403);
    const byHand = dashboard.as(operatorKey);
    const published = (await catalogue())!;
    expect((await byHand('PUT', '/api/portal/catalogue', { id: published.id, org_id: org.id, apis: [] })).status).toBe(200);
    const restored = await until('the catalogue entry to be restored', catalogue, (c) => (c?.apis.length ?? 0) === 1);
    expect(restored?.apis[0]).toMatchObject({ name: 'Payments', policy_id: published.apis[0]!.policy_id });

    const handDeleted = restored!.apis[0]!.documentation!;
    expect((await byHand('DELETE', `/api/portal/documentation/${handDeleted}`)).status).toBe(200);
    const reuploaded = await until(
      'the deleted document to be uploaded again',
      catalogue,
      (c) => c?.apis[0]?.documentation !== undefined && c.apis[0].documentation !== handDeleted,
    );
    expect((await document(reuploaded!.apis[0]!.documentation!)).status).toBe(200);

    const current = await configuration();
    expect((await byHand('PUT', '/api/portal/configuration', { ...current, require_key_approval: false })).status).toBe(200);
    await until('the configuration to be restored', configuration, (c) => c.require_key_approval === true);

    // 4. Deletion ordering: a listed APIDescription is kept until its catalogue goes, which empties the
    //    catalogue; deleting a PortalConfig leaves the dashboard's configuration.
    await kubectl(['delete', 'apidescription', 'payments', '-n', ns.name, '--wait=false']);
    const blocked = await waitFor('apidescription', ns.name, 'payments', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(blocked)?.message).toBe(`Unable to delete api description due to portal catalogue dependency "${ns.name}/catalogue"`);
    expect((await events(ns.name, 'payments')).some((e) => e.type === 'Warning' && e.reason === 'DeletionBlocked')).toBe(true);
    expect((await catalogue())!.apis).toHaveLength(1);
    // The policy the catalogue publishes is kept too (Tyk's rule).
    await kubectl(['delete', 'securitypolicy', 'payments-developer', '-n', ns.name, '--wait=false']);
    const policyHeld = await waitFor('securitypolicy', ns.name, 'payments-developer', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(policyHeld)?.message).toBe(`not deleted while PortalAPICatalogue ${ns.name}/catalogue still needs it`);

    await kubectl(['delete', 'portalapicatalogue', 'catalogue', '-n', ns.name, '--timeout=60s']);
    expect((await catalogue())!.apis).toEqual([]);
    await waitFor('apidescription', ns.name, 'payments', (r: Resource | undefined) => r === undefined);
    await waitFor('securitypolicy', ns.name, 'payments-developer', (r: Resource | undefined) => r === undefined);

    const kept = await configuration();
    await kubectl(['delete', 'portalconfig', 'portal', '-n', ns.name, '--timeout=60s']);
    expect(await configuration()).toEqual(kept);

    // 5. Through an OperatorContext: another organisation's portal configuration, listed in the context's status.
    const otherKey = await other.user(ALL_WRITE, { system: true });
    await kubectl(['apply', '-n', ns.name, '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          manifest('OperatorContext', 'other-org', { env: { mode: 'pro', url: dashboard.url, auth: otherKey, org: other.id } }),
          manifest('PortalConfig', 'other-portal', { disable_signup: true, contextRef: { name: 'other-org' } }),
        ],
      }),
    });
    await waitFor('portalconfig', ns.name, 'other-portal', synced);
    expect((await other.call('GET', '/api/portal/configuration')).json()).toMatchObject({ org_id: other.id, disable_signup: true });
    expect(await configuration()).toEqual(kept);
    const context = await waitFor('operatorcontext', ns.name, 'other-org', (r) => (r?.status?.linked_portal_configs as unknown[] | undefined)?.length === 1);
    expect(context?.status?.linked_portal_configs).toEqual([{ name: 'other-portal', namespace: ns.name }]);
    // The context is kept while the PortalConfig uses it.
    await kubectl(['delete', 'operatorcontext', 'other-org', '-n', ns.name, '--wait=false']);
    const held = await waitFor('operatorcontext', ns.name, 'other-org', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(held)?.message).toContain(`PortalConfig ${ns.name}/other-portal`);
    await kubectl(['delete', 'portalconfig', 'other-portal', '-n', ns.name, '--timeout=60s']);
    await waitFor('operatorcontext', ns.name, 'other-org', (r: Resource | undefined) => r === undefined);
  });
});
