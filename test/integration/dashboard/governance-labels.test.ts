// Governance labels through the dashboard, every part real: a dashboard on PostgreSQL configured with a real
// governance hub (`gw governance`, its admin token). The dashboard lists the hub's labels and applies them to its
// organisation's APIs only, passes the hub's refusals on, needs `apis` write to apply; without a hub it says so
// (404), with the hub down it is 503, never 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startPostgres, type RunningPostgres } from '../../support/postgres.ts';
import { ADMIN_TOKEN, startHub, type RunningHub } from '../governance/hub-process.ts';

interface HubLabel {
  name: string;
  values: string[];
}

describe('dashboard: governance labels from a governance hub', () => {
  let hub: RunningHub;
  let dashboard: RunningDashboard;
  let acme: TestOrg;
  let other: TestOrg;
  let apiId: string;
  let otherApiId: string;
  let postgres: RunningPostgres;

  beforeAll(async () => {
    postgres = await startPostgres();
    hub = await startHub({ database_url: postgres.createDatabase('hub') });
    dashboard = await startDashboard({ database_url: postgres.createDatabase('dashboard'), governance_url: hub.url, governance_token: ADMIN_TOKEN });
    acme = await createOrg(dashboard, 'Acme');
    other = await createOrg(dashboard, 'Other');
    apiId = (await acme.call('POST', '/api/apis', classicApi('Labelled', '/labelled/'))).json<{ Meta: string }>().Meta;
    otherApiId = (await other.call('POST', '/api/apis', classicApi('Not yours', '/not-yours/'))).json<{ Meta: string }>().Meta;
  });

  it("lists the hub's labels and applies them to the organisation's API; the hub holds them", async () => {
    const labels = (await acme.call('GET', '/api/governance/labels')).json<{ labels: HubLabel[] }>().labels;
    expect(labels.find((l) => l.name === 'API Criticality')?.values).toEqual(['Tier 1', 'Tier 2', 'Tier 3']);
    expect(labels.map((l) => l.name)).toContain('Business Domain');

    expect((await acme.call('GET', `/api/apis/${apiId}/governance-labels`)).json()).toEqual({ api_id: apiId, labels: {} });
    const applied = await acme.call('PATCH', `/api/apis/${apiId}/governance-labels`, { labels: { 'API Criticality': 'Tier 1', 'Business Domain': 'Sales' } });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json()).toEqual({ api_id: apiId, labels: { 'API Criticality': 'Tier 1', 'Business Domain': 'Sales' } });
    expect((await hub.admin('GET', `/api/${apiId}/labels`)).json()).toEqual({
      api_id: apiId,
      labels: { 'API Criticality': 'Tier 1', 'Business Domain': 'Sales' },
    });

    const removed = await acme.call('PATCH', `/api/apis/${apiId}/governance-labels`, { labels: { 'Business Domain': null } });
    expect(removed.json()).toEqual({ api_id: apiId, labels: { 'API Criticality': 'Tier 1' } });

    // The list filter: the organisation's APIs carrying the label, never another organisation's (labelled at the hub).
    expect((await hub.admin('PUT', `/api/${otherApiId}/labels`, { labels: { 'API Criticality': 'Tier 1' } })).status).toBe(200);
    const filtered = await acme.call('GET', `/api/governance/apis?label=${encodeURIComponent('API Criticality:Tier 1')}`);
    expect(filtered.json()).toEqual({ api_ids: [apiId] });
    expect((await acme.call('GET', `/api/governance/apis?label=${encodeURIComponent('API Criticality:Tier 2')}`)).json()).toEqual({ api_ids: [] });
    const bad = await acme.call('GET', '/api/governance/apis?label=nocolon');
    expect(bad.status).toBe(400);
    expect(bad.json<{ Message: string }>().Message).toMatch(/^label: /);
    expect((await hub.admin('PUT', `/api/${otherApiId}/labels`, { labels: {} })).status).toBe(200);
  });

  it("passes the hub's refusal on, and applies nothing to another organisation's API or without apis write", async () => {
    const refused = await acme.call('PATCH', `/api/apis/${apiId}/governance-labels`, { labels: { 'API Criticality': 'Tier 9' } });
    expect(refused.status).toBe(400);
    expect(refused.json<{ Message: string }>().Message).toMatch(/^governance hub: .*Tier 1/);

    for (const method of ['GET', 'PATCH'] as const) {
      const answer = await acme.call(
        method,
        `/api/apis/${otherApiId}/governance-labels`,
        method === 'PATCH' ? { labels: { 'API Criticality': 'Tier 3' } } : undefined,
      );
      expect(answer.status, method).toBe(404);
    }
    expect((await hub.admin('GET', `/api/${otherApiId}/labels`)).json()).toEqual({ api_id: otherApiId, labels: {} });

    const reader = dashboard.as(await acme.user({ apis: 'read' }));
    expect((await reader('GET', `/api/apis/${apiId}/governance-labels`)).status).toBe(200);
    const denied = await reader('PATCH', `/api/apis/${apiId}/governance-labels`, { labels: { 'API Criticality': 'Tier 2' } });
    expect(denied.status).toBe(403);
    expect(denied.json()).toEqual({ Status: 'Error', Message: 'access denied: requires apis write' });
    expect((await acme.call('PATCH', `/api/apis/${apiId}/governance-labels`, { labels: { 'API Criticality': 7 } })).status).toBe(400);
  });

  it('says when there is no hub (labels unavailable, other paths 404) and when it is unreachable (503)', async () => {
    const plain = await startDashboard({ database_url: postgres.createDatabase('plain') });
    const org = await createOrg(plain, 'Plain');
    const none = await org.call('GET', '/api/governance/labels');
    expect(none.status).toBe(200);
    expect(none.json()).toEqual({ available: false, labels: [] });
    const noApis = await org.call('GET', '/api/governance/apis?label=a:b');
    expect(noApis.status).toBe(404);
    expect(noApis.json()).toEqual({ Status: 'Error', Message: 'no governance hub configured (governance_url, governance_token)' });

    await hub.stop();
    const down = await acme.call('GET', '/api/governance/labels');
    expect(down.status).toBe(503);
    expect(down.json<{ Message: string }>().Message).toMatch(/^governance hub unreachable/);
    expect(down.text).not.toContain(ADMIN_TOKEN);
  });
});
