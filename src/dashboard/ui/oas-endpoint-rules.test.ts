// The endpoint designer's rules read from and written into an OAS document's operation middleware: operations found
// by operationId in `paths` (one added, with Tyk's generated id, when a rule names none), gw's location kept, disabled
// entries and unmanaged keys left alone, and a refused field mapped back to the rule's input that wrote it.
import { describe, expect, it } from 'vitest';
import { newRule, type EndpointRule } from './endpoint-rules.ts';
import { OAS_RULES, oasFieldOfRule, oasRefusedInput, oasRulesOf, withOasRules } from './oas-endpoint-rules.ts';

const X = 'x-gw-api-gateway';

const document = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/status': { get: { operationId: 'status', summary: 'Health', responses: {} } },
    '/slow': { post: { operationId: 'slow', responses: {} } },
    '/pets/{id}': { get: { operationId: 'getPet', responses: {} }, delete: { responses: { '204': { description: 'gone' } } } },
    '/orders': { get: { operationId: 'listOrders', responses: {} } },
  },
  [X]: {
    info: { name: 'Shop', state: { active: true } },
    upstream: { url: 'http://upstream.test' },
    server: { listenPath: { value: '/shop/', strip: true } },
    middleware: {
      global: { cors: { enabled: true } },
      operations: {
        status: {
          mockResponse: { enabled: true, code: 201, body: 'up', headers: [{ name: 'X-A', value: '1' }] },
          trackEndpoint: { enabled: true },
          block: { enabled: false },
        },
        // Configured at gw's location too: that one is served, this one is kept as it is.
        slow: { enforceTimeout: { enabled: true, value: 9 } },
        // Nothing configured: kept as it is.
        listOrders: {},
      },
    },
    operations: { slow: { enforceTimeout: { enabled: true, value: 5 } } },
  },
};

type Ext = { middleware?: { operations?: Record<string, unknown> }; operations?: Record<string, unknown> };
const extOf = (written: Record<string, unknown>): Ext => written[X] as Ext;

describe('OAS endpoint rules', () => {
  it('reads the enabled entries of the operations the gateway serves, with their path and method', () => {
    expect(oasRulesOf(document).map((r) => [r.kind, r.path, r.method, r.values])).toEqual([
      ['mock', '/status', 'GET', { code: '201', body: 'up', headers: 'X-A: 1' }],
      ['timeout', '/slow', 'POST', { timeout: '5' }],
    ]);
  });

  it('writes the rules back as they were: every other key, entry, location and path kept', () => {
    expect(withOasRules(document, oasRulesOf(document))).toEqual(document);
  });

  it("adds a rule's operation to paths with Tyk's generated operationId, or names an operation that has none", () => {
    const block: EndpointRule = { ...OAS_RULES.newRule('block'), path: '/admin' };
    const remove: EndpointRule = { ...OAS_RULES.newRule('ignore'), path: '/pets/{id}', method: 'DELETE' };
    const written = withOasRules(document, [block, remove]);
    expect((written.paths as Record<string, unknown>)['/admin']).toEqual({ get: { operationId: 'adminGET', responses: {} } });
    expect((written.paths as Record<string, Record<string, unknown>>)['/pets/{id}']!.delete).toEqual({
      operationId: 'pets/{id}DELETE',
      responses: { '204': { description: 'gone' } },
    });
    expect(extOf(written).middleware?.operations).toEqual({
      // The disabled block and the tracking are not the designer's: kept, the mock gone with its rule.
      status: { trackEndpoint: { enabled: true }, block: { enabled: false } },
      slow: { enforceTimeout: { enabled: true, value: 9 } },
      listOrders: {},
      adminGET: { block: { enabled: true } },
      'pets/{id}DELETE': { ignoreAuthentication: { enabled: true } },
    });
    // Emptied, but kept: Tyk's location has the operation too, and would be served instead.
    expect(extOf(written).operations).toEqual({ slow: {} });
    expect(oasRulesOf(written).map((r) => [r.kind, r.path, r.method])).toEqual([
      ['block', '/admin', 'GET'],
      ['ignore', '/pets/{id}', 'DELETE'],
    ]);
  });

  it('numbers a generated operationId another operation already has, and adds no middleware when no rule needs it', () => {
    const bare = { openapi: '3.0.3', paths: { '/other': { get: { operationId: 'adminGET' } } }, [X]: { info: { name: 'A' } } };
    const written = withOasRules(bare, [{ ...OAS_RULES.newRule('block'), path: 'admin' }]);
    expect((written.paths as Record<string, unknown>)['/admin']).toEqual({ get: { operationId: 'adminGET2', responses: {} } });
    expect(withOasRules(bare, [])).toEqual(bare);
  });

  it("writes each kind's inputs in Tyk OAS's shape, and what does not parse as typed so the dashboard refuses it", () => {
    const rules: EndpointRule[] = [
      { ...OAS_RULES.newRule('mock'), path: '/status', values: { code: '200', body: '{"ok":true}', headers: 'Content-Type: application/json' } },
      { ...OAS_RULES.newRule('timeout'), path: '/slow', method: 'POST', values: { timeout: 'soon' } },
      { ...OAS_RULES.newRule('headers'), path: '/h', values: { add_headers: 'X-B: 2', delete_headers: 'X-C, X-D' } },
      { ...OAS_RULES.newRule('responseHeaders'), path: '/h', values: { add_headers: 'Cache-Control: no-store', delete_headers: '' } },
      { ...OAS_RULES.newRule('breaker'), path: '/b', values: { threshold_percent: '0.5', samples: '', return_to_service_after: '30' } },
      { ...OAS_RULES.newRule('transform'), path: '/t', method: 'POST', values: { input_type: 'json', template: '{"name": "{{.name}} – ü"}' } },
      { ...OAS_RULES.newRule('validate'), path: '/v', method: 'POST', values: { error_response_code: '' } },
    ];
    const written = withOasRules(document, rules);
    const ext = extOf(written);
    expect(ext.middleware?.operations).toMatchObject({
      status: { mockResponse: { enabled: true, code: 200, body: '{"ok":true}', headers: [{ name: 'Content-Type', value: 'application/json' }] } },
      hGET: {
        transformRequestHeaders: { enabled: true, add: [{ name: 'X-B', value: '2' }], remove: ['X-C', 'X-D'] },
        transformResponseHeaders: { enabled: true, add: [{ name: 'Cache-Control', value: 'no-store' }], remove: [] },
      },
      bGET: { circuitBreaker: { enabled: true, threshold: 0.5, coolDownPeriod: 30 } },
      tPOST: { transformRequestBody: { enabled: true, format: 'json', body: 'eyJuYW1lIjogInt7Lm5hbWV9fSDigJMgw7wifQ==' } },
      vPOST: { validateRequest: { enabled: true } },
    });
    expect(ext.operations).toEqual({ slow: { enforceTimeout: { enabled: true, value: 'soon' } } });
    expect(oasRulesOf(written).find((r) => r.kind === 'transform')?.values).toEqual(rules[5]!.values);
    expect(OAS_RULES.inputs('validate').map((input) => input.name)).toEqual(['error_response_code']);
  });

  it("maps a refused field to the rule's input, at either location", () => {
    const rules: EndpointRule[] = [
      { ...newRule('timeout'), path: '/slow', method: 'POST' },
      { ...OAS_RULES.newRule('mock'), path: '/status' },
    ];
    expect(oasFieldOfRule(document, rules, 0)).toBe(`${X}.operations.slow.enforceTimeout`);
    expect(oasFieldOfRule(document, rules, 1)).toBe(`${X}.middleware.operations.status.mockResponse`);
    const at = (i: number, refused: string): string | undefined => oasRefusedInput(rules[i]!, oasFieldOfRule(document, rules, i), refused);
    expect(at(0, `${X}.operations.slow.enforceTimeout.value`)).toBe('timeout');
    expect(at(1, `${X}.middleware.operations.status.mockResponse.headers[0].name`)).toBe('headers');
    expect(at(1, `${X}.operations.status.mockResponse.code`)).toBe('code');
    expect(at(1, `${X}.middleware.operations.status.mockResponse`)).toBe('rule');
    expect(at(1, `${X}.middleware.operations.slow.enforceTimeout.value`)).toBeUndefined();
  });
});
