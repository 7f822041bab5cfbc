// The dashboard's API writes run the definition rules the gateway's loader and the operator's webhook run
// (definition-rules/): a Classic definition whose JavaScript plugin the gateway would refuse (a name that is no
// variable, a blob that is not base64, a script that does not parse), or an OAS one it would refuse (a plugin, an
// operation whose operationId is not in paths, validateRequest without a JSON body schema), is answered 400 naming the field, at POST and PUT, and nothing is stored. The gateway refuses the same definition with the same
// words. A real dashboard on PGlite.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, createOrg, oasApi, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { useDatabases } from '../../support/postgres.ts';
import { classicToSpec } from '../../../src/gateway/definition/from-classic.ts';
import { oasToSpec } from '../../../src/gateway/definition/from-oas.ts';
import type { ClassicApiDefinition } from '../../../src/domain/classic.ts';
import type { OasDocument } from '../../../src/domain/oas.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const virtual = (source: string) => ({
  path: '/v',
  method: 'GET',
  function_source_type: 'blob',
  function_source_uri: source,
  response_function_name: 'answer',
});

/** Classic definitions the gateway refuses for their plugins, and the field the 400 names. */
const REFUSED_CLASSIC: [string, Record<string, unknown>, string][] = [
  [
    'a pre plugin named no variable',
    { custom_middleware: { driver: 'otto', pre: [{ name: 'not a name', code: 'var x = 1' }] } },
    'custom_middleware.pre[0].name',
  ],
  ['a pre plugin that does not parse', { custom_middleware: { driver: 'otto', pre: [{ name: 'Pre', code: 'function (' }] } }, 'custom_middleware.pre[0]'],
  ['a virtual endpoint blob that is not base64', { extended_paths: { virtual: [virtual('%%% not base64 %%%')] } }, 'extended_paths.virtual[0]'],
  ['a virtual endpoint that does not parse', { extended_paths: { virtual: [virtual(b64('function answer( {'))] } }, 'extended_paths.virtual[0]'],
];

/** OAS documents the gateway refuses at load (definition-rules/oas-definition.ts), and the field the 400 names. */
const REFUSED_OAS: [string, (document: Record<string, unknown>) => void, string][] = [
  [
    'an operation whose operationId is not in paths',
    (document) => Object.assign(document['x-gw-api-gateway'] as object, { operations: { missingOp: { internal: { enabled: true } } } }),
    'x-gw-api-gateway.operations.missingOp',
  ],
  [
    'validateRequest on an operation without a JSON body schema',
    (document) => Object.assign(document['x-gw-api-gateway'] as object, { operations: { anythingGet: { validateRequest: { enabled: true } } } }),
    'x-gw-api-gateway.operations.anythingGet.validateRequest',
  ],
];

describe('dashboard API writes run the definition rules', () => {
  const db = useDatabases('pglite');
  let dashboard: RunningDashboard;
  let org: TestOrg;
  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    org = await createOrg(dashboard, 'A');
  });

  it.each(REFUSED_CLASSIC)('Classic, %s: POST and PUT answer 400 naming the field, as the gateway refuses it', async (_, extra, field) => {
    const definition = classicApi('refused', '/refused', extra);
    let gatewayRefusal = '';
    try {
      classicToSpec(definition as ClassicApiDefinition, 'same-rule');
    } catch (error) {
      gatewayRefusal = (error as Error).message;
    }
    expect(gatewayRefusal).toContain(field);

    const created = await org.call('POST', '/api/apis', definition);
    expect(created.status, created.text).toBe(400);
    expect(created.json()).toEqual({ Status: 'Error', Message: gatewayRefusal });
    const wrapped = await org.call('POST', '/api/apis', { api_definition: definition });
    expect(wrapped.status).toBe(400);
    expect(wrapped.json<{ Message: string }>().Message).toContain(`api_definition.${field}`);

    const plain = await org.call('POST', '/api/apis', classicApi('refused', '/refused'));
    expect(plain.status, plain.text).toBe(200);
    const id = plain.json<{ Meta: string }>().Meta;
    const updated = await org.call('PUT', `/api/apis/${id}`, { ...definition, api_id: id });
    expect(updated.status).toBe(400);
    expect(updated.json<{ Message: string }>().Message).toBe(gatewayRefusal);
    const stored = (await org.call('GET', `/api/apis/${id}`)).json<{ api_definition: Record<string, unknown> }>().api_definition;
    expect(stored).not.toHaveProperty('custom_middleware');
    expect((await org.call('DELETE', `/api/apis/${id}`)).status).toBe(200);
  });

  it('OAS with a JavaScript plugin named no variable: POST and PUT answer 400 naming the field, as the gateway refuses it', async () => {
    const document = oasApi('oas-plugin', '/oas-plugin');
    const ext = document['x-gw-api-gateway'] as Record<string, unknown>;
    ext.middleware = { global: { prePlugins: [{ enabled: true, functionName: 'not a name', path: 'pre.js' }] } };
    const refusal = 'x-gw-api-gateway.middleware.global.prePlugins[0].functionName must be a JavaScript variable name: not a name';
    expect(() => oasToSpec(document as unknown as OasDocument, 'same-rule')).toThrow(refusal);

    const created = await org.call('POST', '/api/apis/oas', document);
    expect(created.status, created.text).toBe(400);
    expect(created.json<{ Message: string }>().Message).toBe(refusal);

    const plain = await org.call('POST', '/api/apis/oas', oasApi('oas-plugin', '/oas-plugin'));
    expect(plain.status, plain.text).toBe(200);
    const id = plain.json<{ ID?: string; Meta?: string }>();
    const apiId = (id.ID ?? id.Meta)!;
    const updated = await org.call('PUT', `/api/apis/oas/${apiId}`, document);
    expect(updated.status).toBe(400);
    expect(updated.json<{ Message: string }>().Message).toBe(refusal);
  });

  it.each(REFUSED_OAS)("OAS, %s: POST answers 400 with the words of the gateway's load problem", async (_, refuse, field) => {
    const document = oasApi('oas-refused', `/oas-refused/${field.split('.').at(-1)}`); // each case its own route
    refuse(document);
    let gatewayRefusal = '';
    try {
      oasToSpec(document as unknown as OasDocument, 'same-rule');
    } catch (error) {
      gatewayRefusal = (error as Error).message;
    }
    expect(gatewayRefusal).toContain(field);

    const created = await org.call('POST', '/api/apis/oas', document);
    expect(created.status, created.text).toBe(400);
    expect(created.json<{ Message: string }>().Message).toBe(gatewayRefusal);
  });
});
