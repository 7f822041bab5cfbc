// The portal kinds repaired through the dashboard's change feed, every part real: the control plane, the operator
// in pro mode with a drift period of ten minutes (GW_DRIFT_PERIOD=600, so the periodic resync cannot be what repairs
// anything within the test), and a dashboard on a real PostgreSQL. config/samples/portal applied with kubectl; then
// the catalogue and the configuration are changed by hand on the dashboard, and each is put back: the write moved
// the organisation's /api/changes, the operator's change watch queued the PortalAPICatalogue / PortalConfig. The
// configuration's repair keeps what was set on the dashboard beyond Tyk's PortalConfig CRD (portal_name).
// The operator's own repair moves the feed too; the reconcile it queues finds the copy in sync and writes nothing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { installCrds } from '../../support/crds.ts';
import { ALL_WRITE, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import type { RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { startPostgres } from '../../support/postgres.ts';
import { events, ready, synced, waitFor } from '../../support/resources.ts';
import { waitUntil } from '../../support/wait.ts';

interface Catalogue {
  id: string;
  apis: { name: string; policy_id: string; documentation?: string }[];
}
interface Cursor {
  version: number;
  epoch: string;
}

const SAMPLES = join(REPO_ROOT, 'config', 'samples', 'portal');

describe('portal drift repaired through the change feed (dashboard on PostgreSQL)', () => {
  const ns = useNamespace('portal-feed');
  let dashboard: RunningDashboard;
  let org: TestOrg;
  let operatorKey: string;

  beforeAll(async () => {
    await installCrds();
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('portalfeed'), allow_explicit_policy_id: true, enable_duplicate_slugs: true });
    org = await createOrg(dashboard, 'Portal Feed Org');
    operatorKey = await org.user(ALL_WRITE, { system: true });
    expect((await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true })).status).toBe(200);
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  const catalogue = async (): Promise<Catalogue> => (await org.call('GET', '/api/portal/catalogue')).json<Catalogue>();
  const configuration = async (): Promise<Record<string, unknown>> => (await org.call('GET', '/api/portal/configuration')).json<Record<string, unknown>>();
  const feed = async (): Promise<Cursor> => (await org.call('GET', '/api/changes?since=0&timeout=0')).json<Cursor>();
  /** Waits until `check` holds (well inside the 600 s drift period); answers the milliseconds since `start`. */
  const repaired = async <T>(start: number, what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<number> => {
    let last: T | undefined;
    await waitUntil(
      () => `${what}; last: ${JSON.stringify(last)}`,
      async () => check((last = await read())),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    return Math.round(performance.now() - start);
  };

  it('puts back a hand edit of the catalogue and of the configuration within the drift period', async () => {
    await startOperator({
      gateway: { controlUrl: dashboard.url } as RunningGateway,
      namespace: ns.name,
      env: { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: operatorKey, GW_ORG: org.id, GW_DRIFT_PERIOD: '600' },
    });
    // The catalogue last, once what it lists is ready: its first reconcile succeeds, so no retry of a waiting
    // catalogue (30 s) is left queued to repair the hand edit instead of the feed.
    for (const file of ['payments_api.yaml', 'apidescription.yaml', 'portalconfig.yaml']) await kubectl(['apply', '-n', ns.name, '-f', join(SAMPLES, file)]);
    await waitFor('apidescription', ns.name, 'payments', (r) => ready(r)?.status === 'True');
    await kubectl(['apply', '-n', ns.name, '-f', join(SAMPLES, 'portalapicatalogue.yaml')]);
    for (const [kind, name] of [
      ['portalapicatalogue', 'catalogue'],
      ['portalconfig', 'portal'],
    ] as const)
      await waitFor(kind, ns.name, name, synced);
    const published = await catalogue();
    expect(published.apis).toHaveLength(1);
    expect(await configuration()).toMatchObject({ require_key_approval: true });

    // Another tool with the operator's key (humans are refused in an operator-managed organisation) empties the
    // catalogue: the feed moves and the catalogue is put back.
    const byHand = dashboard.as(operatorKey);
    const before = await feed();
    const catalogueEdit = performance.now();
    expect((await byHand('PUT', '/api/portal/catalogue', { id: published.id, apis: [] })).status).toBe(200);
    expect((await feed()).version).toBeGreaterThan(before.version);
    const catalogueMs = await repaired(catalogueEdit, 'the catalogue entry to be put back', catalogue, (c) => c.apis.length === 1);
    expect((await catalogue()).apis[0]).toMatchObject({ name: 'Payments', policy_id: published.apis[0]!.policy_id });

    // The same edit names the portal and asks for developer approval, fields Tyk's PortalConfig CRD does not have:
    // the repair puts require_key_approval back and keeps them (the dashboard's PUT replaces everything).
    const current = await configuration();
    const dashboardOnly = { portal_name: 'Payments Portal', require_developer_approval: true };
    const configurationEdit = performance.now();
    expect((await byHand('PUT', '/api/portal/configuration', { ...current, ...dashboardOnly, require_key_approval: false })).status).toBe(200);
    const configurationMs = await repaired(configurationEdit, 'the configuration to be put back', configuration, (c) => c.require_key_approval === true);
    expect(await configuration()).toMatchObject(dashboardOnly);
    process.stdout.write(
      `portal hand edit -> repaired through the change feed: catalogue ${catalogueMs} ms, configuration ${configurationMs} ms (drift period 600 s)\n`,
    );

    // Each repair was one update, recorded as an Event; the feed moves caused by the operator's own writes
    // queued reconciles that found the copy in sync and wrote nothing more.
    await waitUntil(
      'the repairs to be recorded',
      async () =>
        (await events(ns.name, 'catalogue')).some((e) => e.reason === 'Updated') && (await events(ns.name, 'portal')).some((e) => e.reason === 'Updated'),
    );
    const settled = await feed();
    const still = (await org.call('GET', `/api/changes?since=${settled.version}&epoch=${settled.epoch}&timeout=5`)).json<Cursor>();
    expect(still).toEqual(settled);
  });
});
