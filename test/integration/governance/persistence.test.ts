// Nothing the governance hub was told is lost across a restart, on PostgreSQL and on embedded PGlite: labels,
// their allowed values, labels on APIs, issued tokens; and the default labels are created once, so one deleted
// before the restart stays deleted.
import { describe, expect, it } from 'vitest';
import { expectStatus, startHub } from './hub-process.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

describe.each(ENGINES)('governance hub restart on %s', (engine) => {
  const databases = useDatabases(engine);

  it('reads back every label, applied label and token after the process restarts on the same database', async () => {
    const hub = await startHub(databases.config());
    const label = expectStatus<{ id: string }>(await hub.admin('POST', '/api/labels/', { name: 'Region', values: ['EU', 'US'] }), 200);
    expectStatus(
      await hub.admin('PUT', '/api/eu-payments/labels', { labels: { Region: 'EU', 'API Criticality': 'Tier 1', 'Business Domain': 'Payments' } }),
      200,
    );
    const member = expectStatus<{ id: string; token: string }>(await hub.admin('POST', '/api/tokens', { name: 'reader', role: 'member' }), 200);
    expectStatus(await hub.admin('DELETE', '/api/labels/business_domain?force=true'), 200);
    const before = {
      labels: expectStatus(await hub.admin('GET', '/api/labels'), 200),
      apis: expectStatus(await hub.admin('GET', '/api/apis'), 200),
      tokens: expectStatus(await hub.admin('GET', '/api/tokens'), 200),
    };

    await hub.restart();

    expect(expectStatus(await hub.admin('GET', '/api/labels'), 200)).toEqual(before.labels);
    expect(expectStatus(await hub.admin('GET', '/api/apis'), 200)).toEqual(before.apis);
    expect(expectStatus(await hub.admin('GET', '/api/tokens'), 200)).toEqual(before.tokens);
    expect(expectStatus(await hub.call('GET', '/api/eu-payments/labels', { key: member.token }), 200)).toEqual({
      api_id: 'eu-payments',
      labels: { 'API Criticality': 'Tier 1', Region: 'EU' },
    });
    expect(expectStatus(await hub.admin('GET', '/api/labels'), 200)).toMatchObject({
      labels: [{ name: 'API Criticality' }, { id: label.id, name: 'Region', values: ['EU', 'US'] }],
    });
    expect(expectStatus(await hub.admin('PUT', '/api/eu-payments/labels', { labels: { Region: 'APAC' } }), 400).message).toMatch(
      /"APAC" is not an allowed value of label "Region"/,
    );
  });
});
