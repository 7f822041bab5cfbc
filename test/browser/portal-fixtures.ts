// What the portal's browser tests publish through the dashboard's admin-facing API, as an organisation's admin
// would: an API behind an auth token (a real upstream), a policy granting it, its OpenAPI document (stored base64,
// as Tyk expects), a catalogue with that entry shown (plus a hidden one that must never appear) and the
// portal configuration.
import { expect } from 'vitest';
import { classicApi, type TestOrg } from '../support/dashboard.ts';

/** The OpenAPI document of the Weather API, as the API page must render it. */
export const WEATHER_OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Weather API', version: '1.2.0', description: 'Forecasts for any city.' },
  paths: {
    '/forecast/{city}': {
      get: {
        operationId: 'getForecast',
        summary: 'The forecast of a city',
        parameters: [{ name: 'city', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The forecast' } },
      },
    },
    '/stations': { get: { operationId: 'listStations', summary: 'Every weather station', responses: { '200': { description: 'Stations' } } } },
  },
};

export interface Published {
  apiId: string;
  policyId: string;
  docId: string;
}

export interface Publication {
  name: string;
  listenPath: string;
  upstream: string;
  /** The organisation's portal configuration. */
  config: Record<string, unknown>;
  /** The entry's long description (Markdown); a fixed two-paragraph text by default. */
  longDescription?: string;
}

async function ok<T>(what: string, call: Promise<{ status: number; text: string; json<U>(): U }>): Promise<T> {
  const response = await call;
  expect(response.status, `${what}: ${response.text}`).toBe(200);
  return response.json<T>();
}

export async function publishCatalogue(org: TestOrg, publication: Publication): Promise<Published> {
  const api = classicApi(publication.name, publication.listenPath, {
    use_keyless: false,
    use_standard_auth: true,
    proxy: { listen_path: publication.listenPath, target_url: publication.upstream, strip_listen_path: true },
  });
  const apiId = (await ok<{ Meta: string }>('API', org.call('POST', '/api/apis', api))).Meta;
  const policyId = (
    await ok<{ Message: string }>(
      'policy',
      org.call('POST', '/api/portal/policies', {
        name: `${publication.name} plan`,
        rate: 100,
        per: 1,
        quota_max: -1,
        access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
      }),
    )
  ).Message;
  const document = Buffer.from(
    JSON.stringify({
      ...WEATHER_OPENAPI,
      info: { ...WEATHER_OPENAPI.info, title: publication.name === 'Weather' ? WEATHER_OPENAPI.info.title : publication.name },
    }),
  ).toString('base64');
  const docId = (
    await ok<{ Message: string }>(
      'documentation',
      org.call('POST', '/api/portal/documentation', { api_id: policyId, doc_type: 'swagger', documentation: document }),
    )
  ).Message;
  await ok('catalogue', org.call('POST', '/api/portal/catalogue', { org_id: org.id }));
  const entry = {
    name: publication.name,
    short_description: `${publication.name}: forecasts for any city`,
    long_description: publication.longDescription ?? 'Forecasts for any city, hour by hour.\n\nFree while in beta.',
    show: true,
    policy_id: policyId,
    documentation: docId,
    auth_type: 'authToken',
    version: 'v2',
  };
  const hidden = { name: 'Hidden draft', show: false, policy_id: policyId, version: 'v2' };
  await ok('catalogue entries', org.call('PUT', '/api/portal/catalogue', { org_id: org.id, apis: [entry, hidden] }));
  await ok('configuration', org.call('POST', '/api/portal/configuration', publication.config));
  return { apiId, policyId, docId };
}
