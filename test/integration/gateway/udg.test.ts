// Universal Data Graph APIs (graphql.execution_mode executionEngine) through a real gateway process, with a real
// REST upstream and a real GraphQL upstream (graphql-js) on loopback: root fields resolved from both kinds,
// arguments, request headers and parent objects templated into the calls, a GraphQL source with a fixed operation,
// a failing source nulling only its field, and the gateway's depth and data source call limits.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, graphql } from 'graphql';
import { classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[] }[];
}

const USERS = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace' },
];

const UDG_SDL = `
  type Query { users: [User] user(id: ID!): User country(code: String!): Country germany: Country broken: String }
  type User { id: ID! name: String posts: [Post] }
  type Post { title: String author: User }
  type Country { code: String name: String flag: String }
`;

const COUNTRIES_SDL = 'type Query { country(code: String!): Country } type Country { code: String name: String }';
const COUNTRY_NAMES: Record<string, string> = { DE: 'Germany', FR: 'France' };

async function startCountries(): Promise<{ url: string; queries: string[]; close(): Promise<void> }> {
  const schema = buildSchema(COUNTRIES_SDL);
  const root = { country: ({ code }: { code: string }) => (COUNTRY_NAMES[code] ? { code, name: COUNTRY_NAMES[code] } : null) };
  const queries: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { query, variables } = JSON.parse(Buffer.concat(chunks).toString()) as { query: string; variables?: Record<string, unknown> };
      queries.push(query);
      void graphql({ schema, source: query, rootValue: root, variableValues: variables ?? {} }).then((result) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    queries,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('UDG APIs', () => {
  let gw: RunningGateway;
  let rest: Upstream;
  let countries: Awaited<ReturnType<typeof startCountries>>;

  const post = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    gw.call('/udg', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  const restPaths = (from: number) => rest.requests.slice(from).map((r) => r.url);

  beforeAll(async () => {
    rest = await startUpstream((req, res) => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = req.url ?? '';
      if (url === '/users') send(200, USERS);
      else if (/^\/users\/\d+$/.test(url)) send(200, USERS.find((u) => `/users/${u.id}` === url) ?? null);
      else if (/^\/users\/\d+\/posts$/.test(url)) {
        const author = USERS.find((u) => url.startsWith(`/users/${u.id}/`));
        send(200, { items: [{ title: `${author?.name} writes`, author }] });
      } else if (url.startsWith('/flags/')) send(200, { emoji: `flag of ${url.slice('/flags/'.length)}` });
      else send(500, { message: 'down' });
      return true;
    });
    countries = await startCountries();
    afterAll(() => countries.close());
    gw = await startGateway({ graphql: { udg_max_data_source_calls: 3, udg_max_depth: 3 } });
    const api = classicApi('udg', '/udg', '', {
      use_keyless: true,
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        schema: UDG_SDL,
        engine: {
          field_configs: [
            { type_name: 'Query', field_name: 'users', disable_default_mapping: true, path: [''] },
            { type_name: 'Query', field_name: 'user', disable_default_mapping: true },
            { type_name: 'User', field_name: 'posts', disable_default_mapping: false, path: ['items'] },
            { type_name: 'Query', field_name: 'germany', disable_default_mapping: false, path: ['data', 'country'] },
            { type_name: 'Query', field_name: 'broken', disable_default_mapping: true },
            { type_name: 'Country', field_name: 'flag', path: ['emoji'] },
          ],
          data_sources: [
            { kind: 'REST', name: 'users', root_fields: [{ type: 'Query', fields: ['users'] }], config: { url: `${rest.url}/users`, method: 'GET' } },
            {
              kind: 'REST',
              name: 'user',
              root_fields: [{ type: 'Query', fields: ['user'] }],
              config: { url: `${rest.url}/users/{{ .arguments.id }}`, method: 'GET', headers: { 'x-tenant': '{{ .request.headers.x-tenant }}' } },
            },
            { kind: 'REST', name: 'posts', root_fields: [{ type: 'User', fields: ['posts'] }], config: { url: `${rest.url}/users/{{ .object.id }}/posts` } },
            { kind: 'REST', name: 'flags', root_fields: [{ type: 'Country', fields: ['flag'] }], config: { url: `${rest.url}/flags/{{ .object.code }}` } },
            { kind: 'REST', name: 'broken', root_fields: [{ type: 'Query', fields: ['broken'] }], config: { url: `${rest.url}/broken` } },
            { kind: 'GraphQL', name: 'countries', root_fields: [{ type: 'Query', fields: ['country'] }], config: { url: countries.url, method: 'POST' } },
            {
              kind: 'GraphQL',
              name: 'germany',
              root_fields: [{ type: 'Query', fields: ['germany'] }],
              config: { url: countries.url, has_operation: true, operation: 'query($c: String!) { country(code: $c) { code name } }', variables: '{"c":"DE"}' },
            },
          ],
        },
      },
    });
    (api.proxy as Record<string, unknown>).target_url = '';
    const created = await gw.admin('POST', '/gw/apis', api);
    expect(created.status, created.text).toBe(200);
    await gw.reload();
  });

  it('resolves a REST root field and, per parent object, a nested REST field templated with {{ .object.id }}', async () => {
    const from = rest.requests.length;
    const result = await post('{ users { name posts { title } } }');
    expect(result.status).toBe(200);
    expect(result.json<GraphqlAnswer>()).toEqual({
      data: {
        users: [
          { name: 'Ada', posts: [{ title: 'Ada writes' }] },
          { name: 'Grace', posts: [{ title: 'Grace writes' }] },
        ],
      },
    });
    expect(restPaths(from).sort()).toEqual(['/users', '/users/1/posts', '/users/2/posts']);
  });

  it('templates field arguments into the URL and client headers into the upstream headers', async () => {
    const from = rest.requests.length;
    const result = await post('query($id: ID!) { user(id: $id) { id name } }', { id: '2' }, { 'x-tenant': 'acme' });
    expect(result.json<GraphqlAnswer>()).toEqual({ data: { user: { id: '2', name: 'Grace' } } });
    expect(rest.requests.slice(from).map((r) => [r.url, r.headers['x-tenant']])).toEqual([['/users/2', 'acme']]);
  });

  it("sends a GraphQL source the client's selection with the variables it uses, and a fixed operation when has_operation", async () => {
    const result = await post('query($code: String!) { here: country(code: $code) { name } germany { code } }', { code: 'FR' });
    expect(result.json<GraphqlAnswer>()).toEqual({ data: { here: { name: 'France' }, germany: { code: 'DE' } } });
    expect(countries.queries).toContain('query($code: String!) { here: country(code: $code) {\n  name\n} }');
  });

  it('resolves a REST field nested in a GraphQL answer, selecting upstream the parent field its template reads', async () => {
    const result = await post('{ country(code: "DE") { name flag } }');
    expect(result.json<GraphqlAnswer>()).toEqual({ data: { country: { name: 'Germany', flag: 'flag of DE' } } });
    expect(countries.queries.at(-1)).toBe('query { country(code: "DE") {\n  name\n  code\n} }');
  });

  it("turns a failing source into a GraphQL error at its field's path and returns the other fields", async () => {
    const result = await post('{ broken users { name } }');
    expect(result.status).toBe(200);
    expect(result.json<GraphqlAnswer>()).toEqual({
      data: { broken: null, users: [{ name: 'Ada' }, { name: 'Grace' }] },
      errors: [{ message: 'data source broken answered 500', locations: [{ line: 1, column: 3 }], path: ['broken'] }],
    });
  });

  it('stops calling data sources past graphql.udg_max_data_source_calls, and refuses queries past graphql.udg_max_depth', async () => {
    const from = rest.requests.length;
    const result = await post('{ a: user(id: 1) { name } b: user(id: 2) { name } c: user(id: 3) { name } d: user(id: 4) { name } }');
    const answer = result.json<GraphqlAnswer>();
    expect(answer.errors).toEqual([expect.objectContaining({ message: 'the query needs more than 3 data source calls (graphql.udg_max_data_source_calls)' })]);
    expect(rest.requests.length - from).toBe(3);
    const deep = await post('{ users { posts { author { name } } } }');
    expect(deep.status).toBe(400);
    expect(deep.json<GraphqlAnswer>()).toEqual({ errors: [{ message: 'the query is deeper than 3 levels (graphql.udg_max_depth)' }] });
  });

  it('refuses a Kafka data source by name', async () => {
    const kafka = classicApi('udg-kafka', '/udg-kafka', '', {
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        schema: 'type Query { a: String }',
        engine: { data_sources: [{ kind: 'Kafka', name: 'events', root_fields: [{ type: 'Query', fields: ['a'] }], config: { topics: ['t'] } }] },
      },
    });
    const refused = await gw.admin('POST', '/gw/apis', kafka);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('graphql.engine.data_sources[0].kind');
    expect(refused.text).toContain('Kafka data sources are not supported');
  });
});
