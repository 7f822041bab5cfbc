// The dashboard refuses, at POST and PUT of Classic APIs, a field the gateway refuses by name while it is in use
// (api/unsupported-fields.ts): 400 naming the field, nothing stored, so a 200 never stands for an API no gateway
// serves. Disabled or empty uses pass, as they do at the gateway.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { useDatabases } from '../../support/postgres.ts';
import { classicToSpec } from '../../../src/gateway/definition/from-classic.ts';
import type { ClassicApiDefinition } from '../../../src/domain/classic.ts';

const virtual = { disabled: false, path: '/v', method: 'GET', function_source_type: 'blob', function_source_uri: '', response_function_name: 'f' };

/** Definitions in use of a refused field, and the field the 400 names. */
const REFUSED: [string, Record<string, unknown>, string][] = [
  ['custom_middleware (Go plugins)', { custom_middleware: { driver: 'goplugin', pre: [{ name: 'AddHeader', path: 'plugin.so' }] } }, 'custom_middleware'],
  ['use_go_plugin_auth', { use_go_plugin_auth: true }, 'use_go_plugin_auth'],
  [
    'proxy.disable_strip_slash',
    { proxy: { listen_path: '/refused', target_url: 'http://127.0.0.1:9/', disable_strip_slash: true } },
    'proxy.disable_strip_slash',
  ],
];

describe('dashboard refuses Classic fields the gateway refuses', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let org: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    org = await createOrg(dashboard, 'A');
  });

  it.each(REFUSED)('POST and PUT with %s answer 400 naming the field, and store nothing', async (_, extra, field) => {
    const definition = classicApi('refused', '/refused', extra);
    expect(() => classicToSpec(definition as ClassicApiDefinition, 'same-rule')).toThrow(field);

    const created = await org.call('POST', '/api/apis', definition);
    expect(created.status).toBe(400);
    expect(created.json()).toEqual({ Status: 'Error', Message: expect.stringContaining(`${field}: `) as string });
    const wrapped = await org.call('POST', '/api/apis', { api_definition: definition });
    expect(wrapped.json<{ Message: string }>().Message).toContain(`api_definition.${field}: `);

    const plain = await org.call('POST', '/api/apis', classicApi('refused', '/refused'));
    const id = plain.json<{ Meta: string }>().Meta;
    const updated = await org.call('PUT', `/api/apis/${id}`, { ...definition, api_id: id });
    expect(updated.status).toBe(400);
    expect(updated.json<{ Message: string }>().Message).toContain(`${field}: `);
    const stored = (await org.call('GET', `/api/apis/${id}`)).json<{ api_definition: Record<string, unknown> }>().api_definition;
    expect(classicToSpec(stored as ClassicApiDefinition, id)).toBeDefined();
    expect((await org.call('DELETE', `/api/apis/${id}`)).status).toBe(200);
  });

  it('accepts the same fields when not in use: disabled entries, false flags, middleware naming nothing', async () => {
    const definition = classicApi('unused', '/unused', {
      use_oauth2: false,
      custom_middleware: { pre: [], post: [], driver: 'otto' },
      extended_paths: { virtual: [{ ...virtual, disabled: true }] },
      version_data: { not_versioned: true, versions: { Default: { name: 'Default', use_extended_paths: false, extended_paths: { virtual: [virtual] } } } },
    });
    const created = await org.call('POST', '/api/apis', definition);
    expect(created.status, created.text).toBe(200);
  });
});
