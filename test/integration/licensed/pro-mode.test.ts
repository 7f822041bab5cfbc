// Licensed mode end to end, every part real: a dashboard on a real PostgreSQL with three organisations, the operator in
// pro mode (GW_MODE=pro) syncing custom resources into two of them through two OperatorContexts (its default
// credentials belong to the third, which must stay empty), and a gateway in licensed mode serving what the
// dashboard holds:
//   each resource lands in its own organisation, and nothing of one is visible to the other;
//   humans cannot write API definitions of an operator-managed organisation, the operator's system user can, and
//   a human's write to an API the operator wrote is 409 naming its ApiDefinition;
//   a key made in the dashboard works on the gateway; a change in the cluster reaches the gateway;
//   the gateway keeps serving the last good configuration while the dashboard is down, also across its restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { ALL_WRITE, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { startPostgres, type RunningPostgres } from '../../support/postgres.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const api = (name: string, target: string, extra: Record<string, unknown> = {}) =>
  manifest('ApiDefinition', name, {
    name,
    active: true,
    use_keyless: true,
    proxy: { listen_path: `/${name}/`, target_url: target, strip_listen_path: true },
    ...extra,
  });

describe('licensed mode: dashboard, operator in pro mode, gateway from the dashboard', () => {
  const ns = useNamespace('pro');
  let upstream: Upstream;
  let dashboard: RunningDashboard;
  let orgA: TestOrg;
  let orgB: TestOrg;
  let orgC: TestOrg;
  let gw: RunningGateway;
  let postgres: RunningPostgres;

  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
    postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('dashboard'), allow_explicit_policy_id: true, enable_duplicate_slugs: true });
    orgA = await createOrg(dashboard, 'Team A');
    orgB = await createOrg(dashboard, 'Team B');
    orgC = await createOrg(dashboard, 'Default');
    for (const org of [orgA, orgB, orgC]) expect((await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true })).status).toBe(200);
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  it('syncs each resource into its own organisation and serves them through a gateway fed by the dashboard', async () => {
    const operatorA = await orgA.user(ALL_WRITE, { system: true });
    const operatorB = await orgB.user(ALL_WRITE, { system: true });
    const operatorC = await orgC.user(ALL_WRITE, { system: true });
    gw = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
    });
    await startOperator({ gateway: gw, namespace: ns.name, env: { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: operatorC, GW_ORG: orgC.id } });

    for (const [team, key, org] of [
      ['team-a', operatorA, orgA],
      ['team-b', operatorB, orgB],
    ] as const) {
      await kubectl([
        'create',
        'secret',
        'generic',
        `${team}-dashboard`,
        '-n',
        ns.name,
        '--from-literal=GW_MODE=pro',
        `--from-literal=GW_URL=${dashboard.url}`,
        `--from-literal=GW_AUTH=${key}`,
        `--from-literal=GW_ORG=${org.id}`,
      ]);
    }
    await apply(
      ns.name,
      manifest('OperatorContext', 'team-a', { secretRef: { name: 'team-a-dashboard' } }),
      manifest('OperatorContext', 'team-b', { secretRef: { name: 'team-b-dashboard' } }),
      api('alpha', upstream.url, { contextRef: { name: 'team-a' } }),
      api('beta', upstream.url, {
        use_keyless: false,
        use_standard_auth: true,
        auth_configs: { authToken: { auth_header_name: 'Authorization' } },
        contextRef: { name: 'team-b' },
      }),
      manifest('SecurityPolicy', 'beta-gold', {
        name: 'beta-gold',
        state: 'active',
        rate: 100,
        per: 60,
        quota_max: 50,
        quota_renewal_rate: 3600,
        access_rights_array: [{ name: 'beta' }],
        contextRef: { name: 'team-b' },
      }),
    );
    for (const [kind, name] of [
      ['apidefinition', 'alpha'],
      ['apidefinition', 'beta'],
      ['securitypolicy', 'beta-gold'],
    ] as const)
      await waitFor(kind, ns.name, name, synced);

    // Each organisation holds its own; neither sees the other's.
    const alphaId = idFor(ns.name, 'alpha');
    const betaId = idFor(ns.name, 'beta');
    const policyId = idFor(ns.name, 'beta-gold');
    const ids = async (org: TestOrg): Promise<string[]> =>
      (await org.call('GET', '/api/apis?p=-2')).json<{ apis: { api_definition: { api_id: string } }[] }>().apis.map((a) => a.api_definition.api_id);
    expect(await ids(orgA)).toEqual([alphaId]);
    expect(await ids(orgB)).toEqual([betaId]);
    expect(await ids(orgC)).toEqual([]);
    expect((await orgA.call('GET', `/api/apis/${betaId}`)).status).toBe(404);
    expect((await orgB.call('GET', `/api/portal/policies/${policyId}`)).status).toBe(200);
    expect((await orgA.call('GET', `/api/portal/policies/${policyId}`)).status).toBe(404);
    expect((await orgB.call('GET', `/api/apis/${betaId}`)).json<{ api_definition: { org_id: string } }>().api_definition.org_id).toBe(orgB.id);

    // Humans lose write access to API definitions the operator wrote, told which custom resource to edit
    // instead (the operator would put a hand edit back); reading stays.
    const alpha = await orgA.call('GET', `/api/apis/${alphaId}`);
    expect(alpha.headers['x-gw-k8s-object']).toBe(`ApiDefinition ${ns.name}/alpha`);
    const human = await orgA.call('PUT', `/api/apis/${alphaId}`, alpha.json());
    expect(human.status).toBe(409);
    expect(human.json<{ Message: string }>().Message).toContain(`API ${alphaId} is managed by Kubernetes (ApiDefinition ${ns.name}/alpha)`);
    expect((await orgB.call('GET', `/api/portal/policies/${policyId}`)).headers['x-gw-k8s-object']).toBe(`SecurityPolicy ${ns.name}/beta-gold`);
    // Writes to what the operator did not write keep the organisation's rule: only its system user writes.
    expect((await orgA.call('POST', '/api/apis', { name: 'by hand', proxy: { listen_path: '/by-hand/', target_url: upstream.url } })).status).toBe(403);

    // The gateway serves both organisations' APIs, and a key made in the dashboard for the policy works there.
    await expect.poll(async () => (await gw.call('/alpha/get')).status, { timeout: 10_000 }).toBe(200);
    await expect.poll(async () => (await gw.call('/beta/get')).status, { timeout: 10_000 }).toBe(401);
    const created = await orgB.call('POST', '/api/keys', { apply_policies: [policyId], org_id: orgB.id });
    expect(created.status).toBe(200);
    const key = created.json<{ action: string; key: string; status: string }>();
    expect(key).toMatchObject({ action: 'create', status: 'ok' });
    await expect.poll(async () => (await gw.call('/beta/get', { headers: { authorization: key.key } })).status, { timeout: 10_000 }).toBe(200);
    expect((await gw.call('/beta/get', { headers: { authorization: key.key } })).headers['x-ratelimit-limit']).toBe('50');

    // A change in the cluster reaches the gateway through the dashboard.
    await kubectl(['patch', 'apidefinition', 'alpha', '-n', ns.name, '--type=merge', '-p', '{"spec":{"proxy":{"listen_path":"/alpha-v2/"}}}']);
    await expect.poll(async () => (await gw.call('/alpha-v2/get')).status, { timeout: 15_000 }).toBe(200);
    expect((await gw.call('/alpha/get')).status).toBe(404);

    // The dashboard goes away: the gateway keeps serving, says so in /ready, and still does after its own restart.
    await dashboard.stop();
    await expect.poll(async () => JSON.stringify((await gw.admin('GET', '/ready')).json()), { timeout: 10_000 }).toContain('unreachable since');
    expect((await gw.call('/alpha-v2/get')).status).toBe(200);
    expect((await gw.call('/beta/get', { headers: { authorization: key.key } })).status).toBe(200);
    await gw.restart();
    expect((await gw.call('/alpha-v2/get')).status).toBe(200);
    expect((await gw.call('/beta/get', { headers: { authorization: key.key } })).status).toBe(200);

    // It comes back: the outage report clears and changes flow again.
    await dashboard.restart();
    await expect.poll(async () => JSON.stringify((await gw.admin('GET', '/ready')).json()), { timeout: 10_000 }).not.toContain('unreachable since');
    expect((await orgB.call('DELETE', `/api/keys/${key.key}`)).status).toBe(200);
    await expect.poll(async () => (await gw.call('/beta/get', { headers: { authorization: key.key } })).status, { timeout: 10_000 }).toBe(403);
  });

  it('reports a dashboard that does not keep explicit policy ids, naming the setting to change', async () => {
    // allow_explicit_policy_id: false (the default); on the file's PostgreSQL (a PGlite one took 6 s more to start).
    const strict = await startDashboard({ database_url: postgres.createDatabase('strict') });
    const org = await createOrg(strict, 'Strict');
    const system = await org.user(ALL_WRITE, { system: true });
    gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name, env: { GW_MODE: 'pro', GW_URL: strict.url, GW_AUTH: system, GW_ORG: org.id } });
    await apply(ns.name, manifest('SecurityPolicy', 'gold', { name: 'gold', state: 'active', rate: 10, per: 1, access_rights_array: [] }));
    const failed = await waitFor('securitypolicy', ns.name, 'gold', (r) => r?.status?.latestTransaction?.status === 'Failed');
    expect(failed?.status?.latestTransaction?.error).toContain('allow_explicit_policy_id');
    expect((await org.call('GET', '/api/portal/policies?p=-2')).json<{ Data: unknown[] }>().Data).toEqual([]); // nothing left behind
    await strict.stop();
  });
});
