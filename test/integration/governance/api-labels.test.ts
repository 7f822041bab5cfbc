// Labels applied to APIs through the governance API, on PostgreSQL and on embedded PGlite: replacing (PUT) and
// merging (PATCH) an API's labels by label name or key, values checked against the label's allowed values, and
// finding APIs by label filters (AND), by text search over label values, page by page, and per label.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, startHub, type RunningHub } from './hub-process.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

interface ApiPage {
  apis: { api_id: string; labels: Record<string, string> }[];
  page: number;
  pages: number;
  total: number;
}

describe.each(ENGINES)('labels on APIs on %s', (engine) => {
  const databases = useDatabases(engine);
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub(databases.config());
  });

  it('applies labels by name or key, values within the allowed ones, and reads them back by name', async () => {
    const applied = expectStatus(
      await hub.admin('PUT', '/api/payments-v1/labels', { labels: { 'API Criticality': 'Tier 1', business_domain: 'Payments' } }),
      200,
    );
    expect(applied).toEqual({ api_id: 'payments-v1', labels: { 'API Criticality': 'Tier 1', 'Business Domain': 'Payments' } });
    expect(expectStatus(await hub.admin('GET', '/api/payments-v1/labels'), 200)).toEqual(applied);
    expect(expectStatus(await hub.admin('GET', '/api/never-labelled/labels'), 200)).toEqual({ api_id: 'never-labelled', labels: {} });
  });

  it('refuses a value outside the allowed ones (400 naming the label and listing them) and an unknown label, changing nothing', async () => {
    expectStatus(await hub.admin('PUT', '/api/checkout/labels', { labels: { 'API Criticality': 'Tier 2' } }), 200);
    expect(expectStatus(await hub.admin('PUT', '/api/checkout/labels', { labels: { 'API Criticality': 'Tier 4' } }), 400)).toEqual({
      status: 'error',
      message: 'labels.API Criticality: "Tier 4" is not an allowed value of label "API Criticality"; allowed: "Tier 1", "Tier 2", "Tier 3"',
    });
    expect(expectStatus(await hub.admin('PATCH', '/api/checkout/labels', { labels: { 'Business Domain': 'Commerce', Colour: 'blue' } }), 400)).toEqual({
      status: 'error',
      message: 'labels.Colour: unknown label "Colour" (GET /api/labels lists them)',
    });
    expect(expectStatus(await hub.admin('PUT', '/api/checkout/labels', { labels: { 'API Criticality': 'Tier 1', api_criticality: 'Tier 2' } }), 400)).toEqual({
      status: 'error',
      message: 'labels.api_criticality: label "API Criticality" is also given as "API Criticality"',
    });
    expect(expectStatus(await hub.admin('PUT', '/api/checkout/labels', { labels: { 'API Criticality': 2 } }), 400)).toEqual({
      status: 'error',
      message: 'labels.API Criticality: must be a string',
    });
    expect(expectStatus(await hub.admin('PUT', '/api/checkout/labels', { tags: {} }), 400)).toEqual({
      status: 'error',
      message: 'labels: is required: an object of label name -> value; tags: unknown field',
    });
    expect(expectStatus(await hub.admin('PUT', '/api/checkout/labels', '{"labels": {'), 400).message).toMatch(/^Request malformed: /);
    expect(expectStatus(await hub.admin('GET', '/api/checkout/labels'), 200)).toEqual({ api_id: 'checkout', labels: { 'API Criticality': 'Tier 2' } });
    expect(expectStatus(await hub.admin('GET', '/api/bad%20id/labels'), 400)).toEqual({
      status: 'error',
      message: 'api id must be 1-128 characters of A-Z a-z 0-9 . _ ~ -',
    });
  });

  it('PATCH merges (null removes one label), PUT replaces the whole set', async () => {
    expectStatus(await hub.admin('PUT', '/api/orders/labels', { labels: { 'API Criticality': 'Tier 3', 'Business Domain': 'Commerce' } }), 200);
    expect(expectStatus(await hub.admin('PATCH', '/api/orders/labels', { labels: { api_criticality: 'Tier 2' } }), 200)).toEqual({
      api_id: 'orders',
      labels: { 'API Criticality': 'Tier 2', 'Business Domain': 'Commerce' },
    });
    expect(expectStatus(await hub.admin('PATCH', '/api/orders/labels', { labels: { 'Business Domain': null } }), 200)).toEqual({
      api_id: 'orders',
      labels: { 'API Criticality': 'Tier 2' },
    });
    expect(expectStatus(await hub.admin('PUT', '/api/orders/labels', { labels: { 'Business Domain': 'Logistics' } }), 200)).toEqual({
      api_id: 'orders',
      labels: { 'Business Domain': 'Logistics' },
    });
    expect(expectStatus(await hub.admin('PUT', '/api/orders/labels', { labels: {} }), 200)).toEqual({ api_id: 'orders', labels: {} });
  });

  it('finds APIs by label filters (AND, by name or key, any value without one), by search over values, page by page', async () => {
    const catalogue: Record<string, Record<string, string>> = {
      'cat-ledger': { 'API Criticality': 'Tier 1', 'Business Domain': 'Finance Ledger' },
      'cat-invoices': { 'API Criticality': 'Tier 1', 'Business Domain': 'Billing' },
      'cat-reports': { 'API Criticality': 'Tier 3', 'Business Domain': 'Finance Reporting' },
      'cat-status': { 'API Criticality': 'Tier 1' },
    };
    const filterLabel = expectStatus<{ id: string }>(await hub.admin('POST', '/api/labels', { name: 'Catalogue Test', values: ['yes'] }), 200);
    for (const [id, labels] of Object.entries(catalogue))
      expectStatus(await hub.admin('PUT', `/api/${id}/labels`, { labels: { ...labels, 'Catalogue Test': 'yes' } }), 200);
    const ids = async (query: string): Promise<string[]> =>
      expectStatus<ApiPage>(await hub.admin('GET', `/api/apis?label=Catalogue%20Test:yes&${query}`), 200).apis.map((a) => a.api_id);

    expect(await ids('label=API%20Criticality:Tier%201')).toEqual(['cat-invoices', 'cat-ledger', 'cat-status']);
    expect(await ids('label=api_criticality:Tier%201&label=Business%20Domain:Billing')).toEqual(['cat-invoices']);
    expect(await ids('label=Business%20Domain')).toEqual(['cat-invoices', 'cat-ledger', 'cat-reports']);
    expect(await ids('label=API%20Criticality:Tier%202')).toEqual([]);
    expect(await ids('search=FINANCE')).toEqual(['cat-ledger', 'cat-reports']);
    expect(await ids('search=finance&label=API%20Criticality:Tier%203')).toEqual(['cat-reports']);

    const page = expectStatus<ApiPage>(await hub.admin('GET', '/api/apis?label=catalogue_test:yes&per_page=3&page=2'), 200);
    expect(page).toEqual({ apis: [{ api_id: 'cat-status', labels: { 'API Criticality': 'Tier 1', 'Catalogue Test': 'yes' } }], page: 2, pages: 2, total: 4 });

    expect(expectStatus(await hub.admin('GET', '/api/apis?label=Colour:blue'), 400)).toEqual({
      status: 'error',
      message: 'label: unknown label "Colour" (GET /api/labels lists them)',
    });
    expect(expectStatus(await hub.admin('GET', '/api/apis?label=API%20Criticality:'), 400).message).toMatch(/^label: "API Criticality:" has no value/);
    expect(expectStatus(await hub.admin('GET', '/api/apis?page=0'), 400).message).toMatch(/^page: /);

    const carrying = expectStatus<{ label: { id: string }; apis: unknown[]; total: number }>(
      await hub.admin('GET', `/api/labels/${filterLabel.id}/apis?per_page=2`),
      200,
    );
    expect(carrying).toMatchObject({
      label: { id: filterLabel.id, name: 'Catalogue Test' },
      apis: [
        { api_id: 'cat-invoices', value: 'yes' },
        { api_id: 'cat-ledger', value: 'yes' },
      ],
      page: 1,
      pages: 2,
      total: 4,
    });
    expect(expectStatus(await hub.admin('GET', '/api/labels/api_criticality/apis'), 200)).toMatchObject({ label: { key: 'api_criticality' } });
  });
});
