// Proxied bodies are bounded in depth as the management API's are (100, http/json-body.ts), through a real gateway
// process (issue 23, item 9): a JSON body nested 20 000 deep against a recursive schema, and a GraphQL query nested
// 5 000 deep, are answered 400 naming the limit, never 500; 100 levels still go through.
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const RECURSIVE = { $ref: '#/definitions/node', definitions: { node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } } } };
const nestedBody = (depth: number): string => `${'{"child":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const nestedQuery = (depth: number): string => `${'{a'.repeat(depth)}${'}'.repeat(depth)}`;

describe('proxied body depth', () => {
  let gw: RunningGateway;
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      classicApi('tree', '/tree', upstream.url, {
        use_keyless: true,
        extended_paths: { validate_json: [{ path: '/nodes', method: 'POST', schema: RECURSIVE }] },
      }),
      classicApi('graph', '/graph', upstream.url, {
        use_keyless: true,
        graphql: { enabled: true, execution_mode: 'proxyOnly', version: '2', schema: 'type Query { a: Query, b: String }' },
      }),
    ];
    for (const api of apis) await addApi(gw, api);
  });

  const post = (path: string, body: string) => gw.call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('validate_json: 20 000 levels are refused 400 `JSON parsing error` naming the limit; 100 validate', async () => {
    const deep = await post('/tree/nodes', nestedBody(20_000));
    expect(deep.status).toBe(400);
    expect(deep.text).toBe(errorBody('JSON parsing error: JSON nested deeper than 100 levels (at character 900)'));
    expect((await post('/tree/nodes', nestedBody(100))).status).toBe(200);
  });

  it('GraphQL: a query 5 000 deep is a 400 GraphQL error naming the limit, as is a body nested too deeply', async () => {
    const before = upstream.requests.length;
    const deepQuery = await post('/graph', JSON.stringify({ query: nestedQuery(5_000) }));
    expect(deepQuery.status).toBe(400);
    expect(deepQuery.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe('the query is nested deeper than 100 levels (at character 200)');
    const deepVariables = await post('/graph', `{"query":"{ b }","variables":{"v":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`);
    expect(deepVariables.status).toBe(400);
    expect(deepVariables.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(
      'the request body is not valid JSON: JSON nested deeper than 100 levels (at character 132)',
    );
    expect(upstream.requests.length).toBe(before);
    expect((await post('/graph', JSON.stringify({ query: nestedQuery(20).replace('{a}', '{b}') }))).status).toBe(200);
  });
});
