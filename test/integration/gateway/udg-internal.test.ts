// UDG internal data sources (Tyk's `tyk://<api name or id>/<path>`) through a real gateway process with a real REST
// upstream: a source naming an internal API (by looping name and by id) is served through that API's pipeline in
// memory, its authentication applied to the data source's own headers; an unknown name and a UDG API calling itself
// end in field errors (the loop limit bounds the recursion), the rest of the answer intact; one budget of data source
// calls for a request and every internal request it leads to (a fan of self-calls stops there, not 4^5 runs later). And the shape of Tyk
// Operator's udg_internal_graphql_internal_rest sample: a GraphQL source `tyk://<proxy-only GraphQL API>/` read by
// path, with a REST source per country `tyk://<REST API>/{{ .object.code }}` (disable_default_mapping, path []).
import { buildSchema, graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[] }[];
}

const USERS = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace' },
];

const SDL = 'type Query { users: [User] user(id: ID!): User nobody: String again: String } type User { id: ID! name: String }';
const COUNTRIES_SDL = 'type Query { countries: [Country] } type Country { code: String name: String }';
const SAMPLE_SDL =
  'type Query { countries: [Country] } type Country { name: String code: String restCountry: RestCountry } type RestCountry { subregion: String }';

describe('UDG internal data sources (tyk://)', () => {
  let gw: RunningGateway;
  let rest: Upstream;
  let key: string;

  const post = (query: string, headers: Record<string, string> = {}) =>
    gw.call('/udg-int', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

  beforeAll(async () => {
    const countriesSchema = buildSchema(COUNTRIES_SDL);
    const countries = [
      { code: 'DE', name: 'Germany' },
      { code: 'FR', name: 'France' },
    ];
    rest = await startUpstream((req, res, body) => {
      const url = req.url ?? '';
      const send = (answer: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      if (url.startsWith('/graphql')) {
        const { query } = JSON.parse(body.toString()) as { query: string };
        void graphql({ schema: countriesSchema, source: query, rootValue: { countries } }).then(send);
      } else if (url.startsWith('/alpha/')) send({ subregion: `region of ${url.slice('/alpha/'.length)}` });
      else send(url === '/users' ? USERS : (USERS.find((u) => url === `/users/${u.id}`) ?? null));
      return true;
    });
    afterAll(() => rest.close());
    gw = await startGateway();
    // Internal: no route of its own, reachable only by loops; a key is needed, as for any client.
    await addApi(gw, { ...classicApi('users-svc', '/users-svc', rest.url), name: 'Users Service', internal: true });
    key = await addKey(gw, ['users-svc']);
    const keyHeader = { Authorization: '{{ .request.headers.x-users-key }}' };
    const udg = classicApi('udg-int', '/udg-int', '', {
      use_keyless: true,
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        schema: SDL,
        engine: {
          field_configs: [
            { type_name: 'Query', field_name: 'users', disable_default_mapping: true },
            { type_name: 'Query', field_name: 'user', disable_default_mapping: true },
          ],
          data_sources: [
            {
              kind: 'REST',
              name: 'users',
              internal: true,
              root_fields: [{ type: 'Query', fields: ['users'] }],
              config: { url: 'tyk://users-service/users', headers: keyHeader },
            },
            {
              kind: 'REST',
              name: 'user',
              internal: true,
              root_fields: [{ type: 'Query', fields: ['user'] }],
              config: { url: 'tyk://users-svc/users/{{ .arguments.id }}', headers: keyHeader },
            },
            { kind: 'REST', name: 'nobody', root_fields: [{ type: 'Query', fields: ['nobody'] }], config: { url: 'tyk://no-such-api/x' } },
            { kind: 'GraphQL', name: 'again', root_fields: [{ type: 'Query', fields: ['again'] }], config: { url: 'tyk://self/udg-int' } },
          ],
        },
      },
    });
    (udg.proxy as Record<string, unknown>).target_url = '';
    await addApi(gw, udg);

    // Tyk Operator's udg_internal_graphql_internal_rest shape, both sources tyk:// to keyless APIs of this gateway.
    await addApi(gw, {
      ...classicApi('countries-gql', '/countries-gql', `${rest.url}/graphql`, { use_keyless: true }),
      graphql: { enabled: true, execution_mode: 'proxyOnly', schema: COUNTRIES_SDL },
    });
    await addApi(gw, classicApi('rest-countries', '/restCountries', `${rest.url}/alpha/`, { use_keyless: true }));
    const sample = classicApi('udg-sample', '/udg-sample', '', {
      use_keyless: true,
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        schema: SAMPLE_SDL,
        type_field_configurations: [],
        engine: {
          field_configs: [
            { type_name: 'Query', field_name: 'countries', disable_default_mapping: false, path: ['countries'] },
            { type_name: 'Country', field_name: 'restCountry', disable_default_mapping: true, path: [] },
          ],
          data_sources: [
            {
              kind: 'GraphQL',
              name: 'countries',
              internal: false,
              root_fields: [{ type: 'Query', fields: ['countries'] }],
              config: { url: 'tyk://countries-gql/', method: 'POST', headers: {}, body: '' },
            },
            {
              kind: 'REST',
              name: 'restCountries',
              internal: false,
              root_fields: [{ type: 'Country', fields: ['restCountry'] }],
              config: { url: 'tyk://rest-countries/{{ .object.code }}', method: 'GET', body: '', headers: {} },
            },
          ],
        },
      },
    });
    (sample.proxy as Record<string, unknown>).target_url = '';
    await addApi(gw, sample);

    // A fan: each of four fields asks this API again (distinct bodies, so no call is shared) and `hit` calls the
    // upstream once per run: every loop level would multiply the runs by four.
    const fields = ['a', 'b', 'c', 'd'];
    const fan = classicApi('udg-fan', '/udg-fan', '', {
      use_keyless: true,
      graphql: {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        schema: `type Query { hit: String ${fields.map((f) => `${f}: String`).join(' ')} }`,
        engine: {
          field_configs: ['hit', ...fields].map((f) => ({ type_name: 'Query', field_name: f, disable_default_mapping: true })),
          data_sources: [
            { kind: 'REST', name: 'hit', root_fields: [{ type: 'Query', fields: ['hit'] }], config: { url: `${rest.url}/hit`, method: 'GET' } },
            ...fields.map((f) => ({
              kind: 'REST',
              name: `again-${f}`,
              root_fields: [{ type: 'Query', fields: [f] }],
              config: { url: 'tyk://self/udg-fan', method: 'POST', body: JSON.stringify({ query: `{ hit ${f} ${fields.join(' ')} }` }) },
            })),
          ],
        },
      },
    });
    (fan.proxy as Record<string, unknown>).target_url = '';
    await addApi(gw, fan);
  });

  it("serves sources through the named internal API (by looping name and by id), with that API's authentication", async () => {
    const from = rest.requests.length;
    const result = await post('{ users { name } user(id: 2) { id name } }', { 'x-users-key': key });
    expect(result.json<GraphqlAnswer>()).toEqual({ data: { users: [{ name: 'Ada' }, { name: 'Grace' }], user: { id: '2', name: 'Grace' } } });
    expect(
      rest.requests
        .slice(from)
        .map((r) => r.url)
        .sort(),
    ).toEqual(['/users', '/users/2']);
    expect((await gw.call('/users-svc/users', { headers: { authorization: key } })).status).toBe(404);
  });

  it("answers the internal API's refusal as the field's error when the source's headers carry no key", async () => {
    const from = rest.requests.length;
    const result = await post('{ user(id: 1) { name } }');
    expect(result.json<GraphqlAnswer>()).toEqual({
      data: { user: null },
      errors: [expect.objectContaining({ message: 'data source user answered 401', path: ['user'] })],
    });
    expect(rest.requests.length).toBe(from);
  });

  it('an unknown API name and a UDG API calling itself fail their fields only; the loop limit ends the recursion', async () => {
    const result = await post('{ nobody again user(id: 1) { name } }', { 'x-users-key': key });
    const answer = result.json<GraphqlAnswer>();
    expect(answer.data).toEqual({ nobody: null, again: null, user: { name: 'Ada' } });
    const messages = Object.fromEntries((answer.errors ?? []).map((e) => [String(e.path?.[0]), e.message]));
    expect(messages.nobody).toBe('data source nobody answered 500');
    expect(messages.again).toContain('Loop level too deep. Found more than 5 loops in single request');
  });

  it('one budget of data source calls (graphql.udg_max_data_source_calls, 50) for a request and every internal request it leads to', async () => {
    const hits = () => rest.requests.filter((r) => r.url === '/hit').length;
    const from = hits();
    const result = await gw.call('/udg-fan', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ hit a b c d }' }),
    });
    expect(result.status).toBe(200);
    // A budget per loop level would run the API 1 + 4 + 16 + 64 + 256 + 1024 times (the fifth loop's sources fail too deep).
    const made = hits() - from;
    expect(made).toBeGreaterThan(1); // the API did call itself
    expect(made).toBeLessThanOrEqual(50);
  });

  it("serves the shape of Tyk Operator's internal GraphQL + internal REST sample", async () => {
    const result = await gw.call('/udg-sample', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ countries { name restCountry { subregion } } }' }),
    });
    expect(result.json<GraphqlAnswer>()).toEqual({
      data: {
        countries: [
          { name: 'Germany', restCountry: { subregion: 'region of DE' } },
          { name: 'France', restCountry: { subregion: 'region of FR' } },
        ],
      },
    });
  });
});
