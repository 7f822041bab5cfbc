// Proxy-only GraphQL APIs through a real gateway process to a real GraphQL upstream on loopback (graphql-js
// executing the same schema): valid queries reach the upstream (POST and GET), invalid ones are answered in
// GraphQL's error format without reaching it, and keys are limited per API: depth (two policies), allowed and
// restricted fields, introspection; the gateway-wide query size and alias limits; an invalid SDL refuses the API.
import { buildSchema, graphql } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const SDL = `type Query {
  country(code: String!): Country
  countries: [Country!]!
  me: User
}

type Country {
  code: String!
  name: String!
  capital: String
  continent: Continent!
}

type Continent {
  code: String!
  name: String!
  countries: [Country!]!
}

type User {
  id: ID!
  email: String!
}

type Mutation {
  rename(code: String!, name: String!): Country
}
`;

const EUROPE = { code: 'EU', name: 'Europe', countries: () => COUNTRIES };
const COUNTRIES = [
  { code: 'FR', name: 'France', capital: 'Paris', continent: EUROPE },
  { code: 'DE', name: 'Germany', capital: 'Berlin', continent: EUROPE },
];
const ROOT = {
  country: ({ code }: { code: string }) => COUNTRIES.find((c) => c.code === code),
  countries: () => COUNTRIES,
  me: () => ({ id: '1', email: 'me@example.com' }),
  rename: ({ code, name }: { code: string; name: string }) => ({ ...COUNTRIES.find((c) => c.code === code), name }),
};

/** A GraphQL server: graphql-js executing SDL over HTTP (POST JSON, GET parameters). */
async function startGraphqlUpstream(): Promise<Upstream> {
  const schema = buildSchema(SDL);
  return startUpstream((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    let params: { query: string; variables?: Record<string, unknown> };
    try {
      params =
        req.method === 'GET'
          ? { query: url.searchParams.get('query') ?? '', variables: JSON.parse(url.searchParams.get('variables') ?? '{}') as Record<string, unknown> }
          : (JSON.parse(body.toString()) as { query: string; variables?: Record<string, unknown> });
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"errors":[{"message":"upstream: not JSON"}]}');
      return true;
    }
    void graphql({ schema, source: params.query, rootValue: ROOT, variableValues: params.variables ?? {} }).then((result) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'graphql' });
      res.end(JSON.stringify(result));
    });
    return true;
  });
}

interface GraphqlAnswer {
  data?: Record<string, unknown>;
  errors?: { message: string; locations?: { line: number; column: number }[] }[];
}

describe('proxy-only GraphQL APIs', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let shallowKey: string;
  let deepKey: string;
  let restrictedKey: string;
  let allowListKey: string;
  let noIntrospectionKey: string;

  const graphqlApi = (id: string, extra: Record<string, unknown> = {}, graphqlExtra: Record<string, unknown> = {}) =>
    classicApi(id, `/${id}`, upstream.url, { graphql: { enabled: true, execution_mode: 'proxyOnly', version: '2', schema: SDL, ...graphqlExtra }, ...extra });

  const key = async (session: Record<string, unknown>): Promise<string> => {
    const created = await gw.admin('POST', '/gw/keys/create', session);
    expect(created.status).toBe(200);
    return created.json<{ key: string }>().key;
  };

  beforeAll(async () => {
    upstream = await startGraphqlUpstream();
    gw = await startGateway({ graphql: { max_query_bytes: 2048, max_aliases: 3 } });
    expect((await gw.admin('POST', '/gw/apis', graphqlApi('countries'))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', graphqlApi('open', { use_keyless: true }))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', graphqlApi('closed', { use_keyless: true }, { introspection: { disabled: true } }))).status).toBe(200);
    const right = { api_id: 'countries', versions: [] };
    for (const policy of [
      { id: 'shallow', name: 'shallow', max_query_depth: 2, access_rights: { countries: right } },
      { id: 'deep', name: 'deep', max_query_depth: 4, access_rights: { countries: right } },
    ]) {
      expect((await gw.admin('POST', '/gw/policies', policy)).status).toBe(200);
    }
    await gw.reload();
    shallowKey = await key({ apply_policies: ['shallow'] });
    deepKey = await key({ apply_policies: ['deep'] });
    restrictedKey = await key({ access_rights: { countries: { ...right, restricted_types: [{ name: 'User', fields: ['email'] }] } } });
    allowListKey = await key({
      access_rights: {
        countries: {
          ...right,
          allowed_types: [
            { name: 'Query', fields: ['me', 'country'] },
            { name: 'User', fields: ['*'] },
            { name: 'Country', fields: ['name'] },
          ],
        },
      },
    });
    noIntrospectionKey = await key({ access_rights: { countries: { ...right, disable_introspection: true } } });
  });

  const post = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
    gw.call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const asKey = (token: string) => ({ authorization: token });

  /** Sends a refused request and checks the upstream saw nothing new. */
  const refusedBeforeUpstream = async (send: () => ReturnType<typeof post>) => {
    const before = upstream.requests.length;
    const result = await send();
    expect(upstream.requests.length).toBe(before);
    return result;
  };

  it('forwards a valid POST query unchanged and returns the upstream answer; the same operation with a typo never reaches it', async () => {
    const body = JSON.stringify({ query: 'query One($code: String!) { country(code: $code) { name capital } }', variables: { code: 'FR' } });
    const before = upstream.requests.length;
    const result = await post('/open', body);
    expect(result.status).toBe(200);
    expect(result.headers['x-upstream']).toBe('graphql');
    expect(result.json<GraphqlAnswer>()).toEqual({ data: { country: { name: 'France', capital: 'Paris' } } });
    expect(upstream.requests.slice(before).map((r) => [r.method, r.body])).toEqual([['POST', body]]);
    const typo = await refusedBeforeUpstream(() =>
      post('/open', { query: 'query One($code: String!) { country(code: $code) { name capitol } }', variables: { code: 'FR' } }),
    );
    expect(typo.status).toBe(400);
  });

  it('validates GET queries too: a valid one is forwarded with its parameters, an invalid one refused', async () => {
    const query = new URLSearchParams({ query: '{ countries { code } }' }).toString();
    const result = await gw.call(`/open?${query}`);
    expect(result.status).toBe(200);
    expect(result.json<GraphqlAnswer>()).toEqual({ data: { countries: [{ code: 'FR' }, { code: 'DE' }] } });
    expect(upstream.requests.at(-1)).toMatchObject({ method: 'GET', url: `/?${query}` });
    const invalid = await refusedBeforeUpstream(() => gw.call(`/open?${new URLSearchParams({ query: '{ countries { code } nope }' }).toString()}`));
    expect(invalid.status).toBe(400);
    expect(invalid.json<GraphqlAnswer>().errors?.[0]?.message).toBe('Cannot query field "nope" on type "Query".');
  });

  it('answers an invalid query 400 in GraphQL error format without calling the upstream', async () => {
    const unknownField = await refusedBeforeUpstream(() => post('/open', { query: '{ countries { code population } }' }));
    expect(unknownField.status).toBe(400);
    expect(unknownField.headers['content-type']).toBe('application/json');
    expect(unknownField.json<GraphqlAnswer>()).toEqual({
      errors: [{ message: 'Cannot query field "population" on type "Country".', locations: [{ line: 1, column: 20 }] }],
    });

    const syntax = await refusedBeforeUpstream(() => gw.call(`/open?${new URLSearchParams({ query: '{ countries { ' }).toString()}`));
    expect(syntax.status).toBe(400);
    expect(syntax.json<GraphqlAnswer>().errors?.[0]?.message).toBe('Syntax Error: Expected Name, found <EOF>.');

    const badVariable = await refusedBeforeUpstream(() =>
      post('/open', { query: 'query One($code: String!) { country(code: $code) { name } }', variables: { code: 7 } }),
    );
    expect(badVariable.status).toBe(400);
    expect(badVariable.json<GraphqlAnswer>().errors?.[0]?.message).toMatch(
      /^Variable "\$code" got invalid value 7; String cannot represent a non string value: 7/,
    );
  });

  it('answers malformed, empty and batched requests 400 without calling the upstream', async () => {
    const messages: string[] = [];
    for (const body of ['{"query":', '', '[{"query":"{ me { id } }"},{"query":"{ me { id } }"}]']) {
      const result = await refusedBeforeUpstream(() => post('/open', body));
      expect(result.status).toBe(400);
      messages.push(result.json<GraphqlAnswer>().errors![0]!.message);
    }
    expect(messages[0]).toMatch(/^the request body is not valid JSON: /);
    expect(messages.slice(1)).toEqual(['the provided request is empty', 'batched operations are not accepted (batching limit: one operation per request)']);
  });

  it('accepts mutations over POST only', async () => {
    const mutation = 'mutation { rename(code: "FR", name: "Gaul") { name } }';
    const overGet = await refusedBeforeUpstream(() => gw.call(`/open?${new URLSearchParams({ query: mutation }).toString()}`));
    expect(overGet.status).toBe(405);
    expect(overGet.headers.allow).toBe('POST');
    const overPost = await post('/open', { query: mutation });
    expect(overPost.json<GraphqlAnswer>()).toEqual({ data: { rename: { name: 'Gaul' } } });
  });

  it('limits the depth per key: the policy of each key decides', async () => {
    const deep = { query: '{ countries { continent { name } } }' }; // depth 3
    const shallow = await refusedBeforeUpstream(() => post('/countries', deep, asKey(shallowKey)));
    expect(shallow.status).toBe(403);
    expect(shallow.text).toBe(errorBody('depth limit exceeded'));
    expect((await post('/countries', { query: '{ countries { name } }' }, asKey(shallowKey))).status).toBe(200);
    const allowed = await post('/countries', deep, asKey(deepKey));
    expect(allowed.status).toBe(200);
    expect(allowed.json<GraphqlAnswer>().data).toEqual({ countries: [{ continent: { name: 'Europe' } }, { continent: { name: 'Europe' } }] });
    const deeper = { query: 'fragment C on Country { continent { countries { continent { name } } } } { countries { ...C } }' }; // depth 5, through a fragment
    expect((await refusedBeforeUpstream(() => post('/countries', deeper, asKey(deepKey)))).status).toBe(403);
  });

  it('refuses a restricted field for one key and serves it to another', async () => {
    const query = { query: '{ me { id email } }' };
    const restricted = await refusedBeforeUpstream(() => post('/countries', query, asKey(restrictedKey)));
    expect(restricted.status).toBe(400);
    expect(restricted.json<GraphqlAnswer>()).toEqual({ errors: [{ message: 'field: email is restricted on type: User' }] });
    expect((await post('/countries', { query: '{ me { id } }' }, asKey(restrictedKey))).status).toBe(200);
    const allowed = await post('/countries', query, asKey(allowListKey));
    expect(allowed.status).toBe(200);
    expect(allowed.json<GraphqlAnswer>().data).toEqual({ me: { id: '1', email: 'me@example.com' } });
  });

  it('serves only the allow-listed fields to a key with allowed_types', async () => {
    const capital = await refusedBeforeUpstream(() => post('/countries', { query: '{ country(code: "DE") { name capital } }' }, asKey(allowListKey)));
    expect(capital.status).toBe(400);
    expect(capital.json<GraphqlAnswer>()).toEqual({ errors: [{ message: 'field: capital is restricted on type: Country' }] });
    const list = await refusedBeforeUpstream(() => post('/countries', { query: '{ countries { name } }' }, asKey(allowListKey)));
    expect(list.json<GraphqlAnswer>().errors?.[0]?.message).toBe('field: countries is restricted on type: Query');
  });

  it('answers introspection from the schema, and refuses it where it is turned off', async () => {
    const introspection = { query: '{ __schema { queryType { name } } __type(name: "Country") { fields { name } } }' };
    const answered = await refusedBeforeUpstream(() => post('/countries', introspection, asKey(restrictedKey)));
    expect(answered.status).toBe(200);
    expect(answered.json<GraphqlAnswer>().data).toEqual({
      __schema: { queryType: { name: 'Query' } },
      __type: { fields: [{ name: 'code' }, { name: 'name' }, { name: 'capital' }, { name: 'continent' }] },
    });
    const byKey = await refusedBeforeUpstream(() => post('/countries', introspection, asKey(noIntrospectionKey)));
    expect(byKey.status).toBe(403);
    expect(byKey.text).toBe(errorBody('introspection is disabled'));
    expect((await post('/countries', { query: '{ me { id } }' }, asKey(noIntrospectionKey))).status).toBe(200);
    const byApi = await refusedBeforeUpstream(() => gw.call(`/closed?${new URLSearchParams({ query: '{ __schema { types { name } } }' }).toString()}`));
    expect(byApi.status).toBe(403);
    expect(byApi.text).toBe(errorBody('introspection is disabled'));
  });

  it('refuses a query over graphql.max_query_bytes and one over graphql.max_aliases, naming the limit', async () => {
    const long = `{ countries { ${'name '.repeat(500)}} }`;
    const tooLong = await refusedBeforeUpstream(() => post('/open', { query: long }));
    expect(tooLong.status).toBe(413);
    expect(tooLong.json<GraphqlAnswer>()).toEqual({
      errors: [{ message: `the query is ${long.length} bytes, over the limit of 2048 (graphql.max_query_bytes)` }],
    });
    const aliased = { query: 'fragment N on Country { a: name b: name } { x: countries { ...N } y: countries { ...N } }' };
    const tooMany = await refusedBeforeUpstream(() => post('/open', aliased));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json<GraphqlAnswer>()).toEqual({ errors: [{ message: 'the operation uses 6 aliases, over the limit of 3 (graphql.max_aliases)' }] });
    expect((await post('/open', { query: '{ x: countries { a: name } y: me { id } }' })).status).toBe(200);
  });

  it('refuses an API whose schema is not valid SDL, naming graphql.schema and the line', async () => {
    const api = classicApi('broken', '/broken', upstream.url, {
      use_keyless: true,
      graphql: { enabled: true, execution_mode: 'proxyOnly', schema: 'type Query {\n  me: User\n}\n\ntype User {\n  id: ID!\n  friends: [Usr]\n}\n' },
    });
    const created = await gw.admin('POST', '/gw/apis', api);
    expect(created.status).toBe(400);
    expect(created.text).toContain('graphql.schema: line 7, column 13: Unknown type \\"Usr\\". Did you mean \\"User\\"?');
  });
});
