// The document rules of an OAS API (definition-rules/oas-definition.ts) that the gateway's OAS load and the
// dashboard's OAS writes both run: each moved check refuses with the gateway's load words, and the gateway's compile
// (oasToSpec) refuses the same document with the same line.
import { describe, expect, it } from 'vitest';
import { OasDocument } from '../domain/oas.ts';
import { oasToSpec } from '../gateway/definition/from-oas.ts';
import { oasDefinitionProblems } from './oas-definition.ts';
import { gatewayMessage } from './problems.ts';

const X = 'x-gw-api-gateway';

/** A minimal served document: GET /anything (anythingGet), POST /items (createItem) with a JSON body schema. */
function document(gateway: Record<string, unknown> = {}, createItem: Record<string, unknown> = {}): OasDocument {
  return OasDocument.parse({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/anything': { get: { operationId: 'anythingGet', responses: { '200': { description: 'ok' } } } },
      '/items': {
        post: {
          operationId: 'createItem',
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '200': { description: 'ok' } },
          ...createItem,
        },
      },
    },
    [X]: {
      info: { name: 't', state: { active: true } },
      upstream: { url: 'http://127.0.0.1:9/' },
      server: { listenPath: { value: '/t', strip: true } },
      ...gateway,
    },
  });
}

/** The gateway's line for the first problem, checked to be what oasToSpec throws for the same document. */
function refusal(doc: OasDocument): string {
  const problem = oasDefinitionProblems(doc)[0];
  expect(problem).toBeDefined();
  const line = gatewayMessage(problem!);
  expect(() => oasToSpec(doc, 'rules')).toThrow(line);
  return line;
}

describe('OAS document rules', () => {
  it('accepts a document whose operations, validateRequest, load balancing and certificate ids are usable', () => {
    const doc = document({
      operations: { createItem: { validateRequest: { enabled: true } } },
      middleware: { operations: { anythingGet: { mockResponse: { enabled: true, code: 200 } } } },
      upstream: { url: 'http://127.0.0.1:9/', loadBalancing: { enabled: true, targets: [{ url: 'http://127.0.0.1:9/', weight: 1 }] } },
      server: { listenPath: { value: '/t' }, clientCertificates: { enabled: true, allowlist: ['org1abc'] } },
    });
    expect(oasDefinitionProblems(doc)).toEqual([]);
    expect(() => oasToSpec(doc, 'rules')).not.toThrow();
  });

  it('refuses an operation (either location) whose operationId is not in paths', () => {
    expect(refusal(document({ operations: { missingOp: { internal: { enabled: true } } } }))).toBe(
      `${X}.operations.missingOp: no operation in paths has operationId missingOp`,
    );
    expect(refusal(document({ middleware: { operations: { tykPlace: { internal: { enabled: true } } } } }))).toBe(
      `${X}.operations.tykPlace: no operation in paths has operationId tykPlace`,
    );
  });

  it("keeps an operation's fields from both places (a block at Tyk's, a mock at gw's), and refuses a field given differently at both", () => {
    const both = document({
      middleware: { operations: { anythingGet: { block: { enabled: true } } } },
      operations: { anythingGet: { mockResponse: { enabled: true, code: 200 } } },
    });
    expect(oasDefinitionProblems(both)).toEqual([]);
    const spec = oasToSpec(both, 'rules').versions.values().next().value!;
    expect(spec.blackList.map((entry) => [...entry.methods])).toEqual([['GET', 'HEAD']]);
    const same = { block: { enabled: true } };
    expect(oasDefinitionProblems(document({ middleware: { operations: { anythingGet: same } }, operations: { anythingGet: same } }))).toEqual([]);
    const differing = document({
      middleware: { operations: { anythingGet: { block: { enabled: true } } } },
      operations: { anythingGet: { block: { enabled: false } } },
    });
    expect(refusal(differing)).toBe(
      `${X}.operations.anythingGet.block is also configured, differently, at ${X}.middleware.operations.anythingGet.block: write it at one place`,
    );
  });

  it('refuses validateRequest on an operation without an application/json requestBody schema', () => {
    const doc = document({ operations: { createItem: { validateRequest: { enabled: true } } } }, { requestBody: { content: { 'text/plain': {} } } });
    expect(refusal(doc)).toBe(
      `${X}.operations.createItem.validateRequest: operation createItem has no application/json requestBody schema to validate against`,
    );
    const disabled = document({ operations: { createItem: { validateRequest: { enabled: false } } } }, { requestBody: undefined });
    expect(oasDefinitionProblems(disabled)).toEqual([]);
  });

  it('follows a #/components/requestBodies reference to the schema', () => {
    const doc = document({ operations: { createItem: { validateRequest: { enabled: true } } } }, { requestBody: { $ref: '#/components/requestBodies/Item' } });
    expect(oasDefinitionProblems(doc)).toHaveLength(1);
    const withComponent = OasDocument.parse({
      ...doc,
      components: { requestBodies: { Item: { content: { 'application/json': { schema: { type: 'object' } } } } } },
    });
    expect(oasDefinitionProblems(withComponent)).toEqual([]);
  });

  it('refuses load balancing with no target of weight above 0', () => {
    const upstream = { url: 'http://127.0.0.1:9/', loadBalancing: { enabled: true, targets: [{ url: 'http://127.0.0.1:9/', weight: 0 }] } };
    expect(refusal(document({ upstream }))).toBe(
      `${X}.upstream.loadBalancing.targets must name at least one upstream with a weight above 0 when load balancing is enabled`,
    );
    expect(oasDefinitionProblems(document({ upstream: { ...upstream, loadBalancing: { enabled: false, targets: [] } } }))).toEqual([]);
  });

  it('refuses a certificate id with a space, served or in the client allow-list', () => {
    const words = 'must be a certificate id as /gw/certs answers it (org id + SHA-256 hex), without spaces or commas';
    const served = { listenPath: { value: '/t' }, customDomain: { enabled: true, name: 'api.example.com', certificates: ['ok', 'not ok'] } };
    expect(refusal(document({ server: served }))).toBe(`${X}.server.customDomain.certificates[1] ${words}`);
    const client = { listenPath: { value: '/t' }, clientCertificates: { enabled: true, allowlist: ['a,b'] } };
    expect(refusal(document({ server: client }))).toBe(`${X}.server.clientCertificates.allowlist[0] ${words}`);
  });

  it('refuses versioning with no key outside the URL, a version listed twice, or a default that is no version', () => {
    const info = (versioning: Record<string, unknown>) => ({
      info: { name: 't', state: { active: true }, versioning: { enabled: true, name: 'v1', ...versioning } },
    });
    const field = `${X}.info.versioning`;
    expect(refusal(document(info({ location: 'header' })))).toBe(`${field}.key is required when location is header`);
    const twice = [
      { name: 'v2', id: 'api-v2' },
      { name: 'v2', id: 'api-v2b' },
    ];
    expect(refusal(document(info({ location: 'url', versions: twice })))).toBe(`${field}.versions[1].name v2 is listed twice`);
    expect(refusal(document(info({ location: 'url', default: 'v9' })))).toBe(
      `${field}.default names a version that is neither this API (v1) nor in versions: v9`,
    );
    expect(oasDefinitionProblems(document(info({ location: 'url', default: 'self' })))).toEqual([]);
  });
});
