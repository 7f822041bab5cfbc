// Label definitions through the governance API, on PostgreSQL and on embedded PGlite: the default labels, gw's documented
// POST /api/labels/ and its answer, unique names (regardless of case) and keys, validation naming the field, reading
// by id or key, changing allowed values without orphaning applied ones, deleting only with force while applied,
// and the API's HTTP conventions (malformed JSON, unknown route, wrong method, body limit).
import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, startHub, type RunningHub } from './hub-process.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

interface Label {
  id: string;
  name: string;
  values: string[];
  key: string;
  value_type: string;
}

describe.each(ENGINES)('governance labels on %s', (engine) => {
  const databases = useDatabases(engine);
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub({ ...databases.config(), max_body_bytes: 4096 });
  });

  it('creates the default labels at setup: Business Domain (free text) and API Criticality (tiers 1, 2, 3)', async () => {
    const { labels } = expectStatus<{ labels: Label[] }>(await hub.admin('GET', '/api/labels'), 200);
    expect(labels.map(({ id, ...rest }) => [typeof id, rest])).toEqual([
      ['string', { name: 'API Criticality', values: ['Tier 1', 'Tier 2', 'Tier 3'], key: 'api_criticality', value_type: 'predefined' }],
      ['string', { name: 'Business Domain', values: [], key: 'business_domain', value_type: 'free_text' }],
    ]);
  });

  it("answers gw's documented POST /api/labels/ with 200 {id, name, values}, with or without the trailing slash", async () => {
    const created = expectStatus<Label>(
      await hub.admin('POST', '/api/labels/', { name: 'Data Classification', values: ['Public', 'Internal', 'Confidential'] }),
      200,
    );
    expect(Object.keys(created)).toEqual(['id', 'name', 'values', 'key', 'value_type']);
    expect(created).toMatchObject({
      name: 'Data Classification',
      values: ['Public', 'Internal', 'Confidential'],
      key: 'data_classification',
      value_type: 'predefined',
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    const free = expectStatus<Label>(await hub.admin('POST', '/api/labels', { name: 'Owner Team' }), 200);
    expect(free).toMatchObject({ name: 'Owner Team', values: [], key: 'owner_team', value_type: 'free_text' });
    expect(expectStatus(await hub.admin('GET', `/api/labels/${created.id}`), 200)).toEqual(created);
    expect(expectStatus(await hub.admin('GET', '/api/labels/data_classification/'), 200)).toEqual(created);
  });

  it('refuses a second label with the same name in any case, or the same key, with 409', async () => {
    expectStatus(await hub.admin('POST', '/api/labels', { name: 'Lifecycle' }), 200);
    expect(expectStatus(await hub.admin('POST', '/api/labels', { name: 'LIFECYCLE', values: ['beta'] }), 409)).toEqual({
      status: 'error',
      message: 'a label named "Lifecycle" already exists',
    });
    expect(expectStatus(await hub.admin('POST', '/api/labels', { name: 'business-domain' }), 409)).toEqual({
      status: 'error',
      message: 'name "business-domain" gives the key business_domain, already the key of label "Business Domain"',
    });
  });

  it('refuses invalid definitions with 400 naming the field, and malformed JSON with 400', async () => {
    const refusals: [unknown, string][] = [
      [{}, 'name: is required: a string'],
      [{ name: '  ' }, 'name: must not be empty'],
      [{ name: 42 }, 'name: is required: a string'],
      [{ name: 'Region', values: 'EU' }, 'values: must be a list of strings'],
      [{ name: 'Region', values: ['EU', 'EU'] }, 'values[1]: "EU" is listed twice'],
      [{ name: 'Region', vals: ['EU'] }, 'vals: unknown field'],
      [['Region'], 'Request malformed: the body must be a JSON object'],
      ['{"name": "Region",', expect.stringMatching(/^Request malformed: /)],
      ['', 'Request malformed: the body is empty, expected a JSON object'],
    ];
    for (const [body, message] of refusals) expect(expectStatus(await hub.admin('POST', '/api/labels', body), 400)).toEqual({ status: 'error', message });
  });

  it('changes a label: the key follows the name; values may be added, but not removed while an API uses them (409 naming the APIs)', async () => {
    const label = expectStatus<Label>(await hub.admin('POST', '/api/labels', { name: 'Stage', values: ['dev', 'prod'] }), 200);
    expectStatus(await hub.admin('PUT', '/api/stage-a/labels', { labels: { Stage: 'dev' } }), 200);
    expectStatus(await hub.admin('PUT', '/api/stage-b/labels', { labels: { Stage: 'dev' } }), 200);
    expectStatus(await hub.admin('PUT', '/api/stage-c/labels', { labels: { Stage: 'prod' } }), 200);

    const renamed = expectStatus<Label>(await hub.admin('PUT', `/api/labels/${label.id}`, { name: 'Deployment Stage', values: ['dev', 'prod', 'test'] }), 200);
    expect(renamed).toEqual({ id: label.id, name: 'Deployment Stage', values: ['dev', 'prod', 'test'], key: 'deployment_stage', value_type: 'predefined' });
    expect(expectStatus(await hub.admin('GET', '/api/stage-a/labels'), 200)).toEqual({ api_id: 'stage-a', labels: { 'Deployment Stage': 'dev' } });

    expect(expectStatus(await hub.admin('PUT', `/api/labels/${label.id}`, { name: 'Deployment Stage', values: ['test'] }), 409)).toEqual({
      status: 'error',
      message: `values: label "Deployment Stage" would no longer allow "dev" (used by stage-a, stage-b), "prod" (used by stage-c): change those APIs' labels first`,
    });
    expect(expectStatus<Label>(await hub.admin('GET', `/api/labels/${label.id}`), 200).values).toEqual(['dev', 'prod', 'test']);
    // Dropping an unused value is fine; so is turning the label into free text (every value stays valid).
    expect(expectStatus<Label>(await hub.admin('PUT', `/api/labels/${label.id}`, { name: 'Deployment Stage', values: ['dev', 'prod'] }), 200).values).toEqual([
      'dev',
      'prod',
    ]);
    expect(expectStatus<Label>(await hub.admin('PUT', `/api/labels/${label.id}`, { name: 'Deployment Stage' }), 200)).toMatchObject({
      values: [],
      value_type: 'free_text',
    });
    expect(expectStatus(await hub.admin('PUT', `/api/labels/${label.id}`, { name: 'lifecycle' }), 409)).toEqual({
      status: 'error',
      message: 'a label named "Lifecycle" already exists',
    });
    expect(expectStatus(await hub.admin('PUT', '/api/labels/no-such-label', { name: 'X' }), 404)).toEqual({
      status: 'error',
      message: 'label no-such-label not found',
    });
  });

  it('deletes a label applied to APIs only with ?force=true, which removes it from them', async () => {
    const label = expectStatus<Label>(await hub.admin('POST', '/api/labels', { name: 'Deprecated' }), 200);
    expectStatus(await hub.admin('PATCH', '/api/old-a/labels', { labels: { Deprecated: 'yes', 'Business Domain': 'archive' } }), 200);
    expect(expectStatus(await hub.admin('DELETE', `/api/labels/${label.id}`), 409)).toEqual({
      status: 'error',
      message: 'label "Deprecated" is applied to 1 API (old-a): remove it from them first, or delete with ?force=true',
    });
    expect(expectStatus(await hub.admin('DELETE', `/api/labels/${label.id}?force=true`), 200)).toEqual({
      status: 'ok',
      message: 'label "Deprecated" deleted and removed from 1 API',
    });
    expect(expectStatus(await hub.admin('GET', '/api/old-a/labels'), 200)).toEqual({ api_id: 'old-a', labels: { 'Business Domain': 'archive' } });
    expect((await hub.admin('GET', `/api/labels/${label.id}`)).status).toBe(404);
    const unused = expectStatus<Label>(await hub.admin('POST', '/api/labels', { name: 'Unused' }), 200);
    expect(expectStatus(await hub.admin('DELETE', `/api/labels/${unused.key}`), 200)).toEqual({ status: 'ok', message: 'label "Unused" deleted' });
  });

  it('answers an unknown route 404, a wrong method 405 and an oversized body 413, all as JSON errors', async () => {
    expect(expectStatus(await hub.admin('GET', '/api/nothing/here'), 404)).toEqual({ status: 'error', message: 'no route GET /api/nothing/here' });
    expect(expectStatus(await hub.admin('GET', '/elsewhere'), 404)).toEqual({ status: 'error', message: 'no route GET /elsewhere' });
    const wrong = await hub.admin('DELETE', '/api/labels');
    expect([wrong.status, wrong.headers.allow, wrong.json()]).toEqual([
      405,
      'GET, POST',
      { status: 'error', message: 'method DELETE not allowed on /api/labels: use GET, POST' },
    ]);
    expect(expectStatus(await hub.admin('POST', '/api/labels', { name: 'Big', values: Array.from({ length: 400 }, (_, i) => `value ${i}`) }), 413)).toEqual({
      status: 'error',
      message: 'Request body too large: at most 4096 bytes (max_body_bytes)',
    });
  });
});
