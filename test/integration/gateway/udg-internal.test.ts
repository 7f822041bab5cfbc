// UDG internal data sources (Tyk's `tyk://<api name or id>/<path>`) through a real gateway process with a real REST
// upstream: a source naming an internal API (by looping name and by id) is served through that API's pipeline in
// memory, its authentication applied to the data source's own headers; an unknown name and a UDG API calling itself
// end in field errors (the loop limit bounds the recursion), the rest of the answer intact.
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

describe('UDG internal data sources (tyk://)', () => {
  let gw: RunningGateway;
  let rest: Upstream;
  let key: string;

  const post = (query: string, headers: Record<string, string> = {}) =>
    gw.call('/udg-int', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

  beforeAll(async () => {
    rest = await startUpstream((req, res) => {
      const url = req.url ?? '';
      const user = USERS.find((u) => url === `/users/${u.id}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(url === '/users' ? USERS : (user ?? null)));
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
});
