// Supergraph APIs (graphql.execution_mode supergraph) through a real gateway process to two real federation
// subgraphs on loopback (graphql-js, test/support/subgraph.ts), one federation v1 and one v2: the gateway composes
// them at load, plans each query across them and resolves entities with `_entities`; the proxy-only limits still
// apply before anything is executed; a subgraph that stops answering costs its timeout and yields partial data
// with an error naming the path; subgraphs that do not compose refuse the API naming the conflict.
import { beforeAll, describe, expect, it } from 'vitest';
import { startReviewsSubgraph, startUsersSubgraph, CONFLICTING_SDL, REVIEWS_SDL, USERS_SDL } from '../../support/federation-fixtures.ts';
import { classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import type { Subgraph } from '../../support/subgraph.ts';
import { handshake } from '../../support/websocket-handshake.ts';

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[] }[];
}

describe('supergraph APIs', () => {
  let gw: RunningGateway;
  let users: Subgraph;
  let reviews: Subgraph;

  const supergraphApi = (id: string, subgraphs: Record<string, unknown>[], keyless = true) =>
    classicApi(id, `/${id}`, users.url, {
      use_keyless: keyless,
      graphql: { enabled: true, execution_mode: 'supergraph', version: '2', supergraph: { subgraphs } },
    });
  const post = (path: string, query: string, headers: Record<string, string> = {}) =>
    gw.call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  let limitedKey: string;

  beforeAll(async () => {
    [users, reviews] = await Promise.all([startUsersSubgraph(), startReviewsSubgraph()]);
    gw = await startGateway({ graphql: { max_aliases: 2, subgraph_timeout_ms: 60_000 } });
    const subgraphs = [
      { name: 'users', url: users.url, sdl: USERS_SDL },
      { name: 'reviews', url: reviews.url, sdl: REVIEWS_SDL, headers: { 'x-subgraph': 'reviews' } },
    ];
    expect((await gw.admin('POST', '/gw/apis', supergraphApi('social', subgraphs))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', supergraphApi('guarded', subgraphs, false))).status).toBe(200);
    await gw.reload();
    const created = await gw.admin('POST', '/gw/keys/create', {
      max_query_depth: 3,
      access_rights: { guarded: { api_id: 'guarded', versions: [], restricted_types: [{ name: 'Review', fields: ['body'] }], disable_introspection: true } },
    });
    expect(created.status).toBe(200);
    limitedKey = created.json<{ key: string }>().key;
  });

  it('answers a query needing an entity from each subgraph, resolved through _entities', async () => {
    const before = { users: users.requests.length, reviews: reviews.requests.length };
    const result = await post('/social', '{ reviews { body author { name reviews { body } } } me { name reviews { body } } }');
    expect(result.status).toBe(200);
    expect(result.json<GraphqlAnswer>()).toEqual({
      data: {
        reviews: [
          { body: 'elegant', author: { name: 'Grace', reviews: [{ body: 'elegant' }] } },
          { body: 'thorough', author: { name: 'Ada', reviews: [{ body: 'thorough' }] } },
        ],
        me: { name: 'Ada', reviews: [{ body: 'thorough' }] },
      },
    });
    const bodies = (s: Subgraph, from: number) => s.requests.slice(from).map((r) => r.body);
    expect(bodies(users, before.users).some((b) => b.includes('_entities'))).toBe(true); // authors resolved by users
    expect(bodies(reviews, before.reviews).some((b) => b.includes('_entities'))).toBe(true); // me.reviews by reviews
    expect(reviews.requests.slice(before.reviews).every((r) => r.headers['x-subgraph'] === 'reviews')).toBe(true);
  });

  it('applies the proxy-only limits before executing: invalid, aliased, malformed, too deep, restricted and introspection requests reach no subgraph', async () => {
    const before = users.requests.length + reviews.requests.length;
    const typo = await post('/social', '{ me { nam } }');
    expect(typo.status).toBe(400);
    expect(typo.json<GraphqlAnswer>().errors?.[0]?.message).toContain('Cannot query field "nam" on type "User"');
    const aliased = await post('/social', '{ a: me { name } b: me { name } c: me { name } }');
    expect(aliased.status).toBe(400);
    const malformed = await gw.call('/social', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":' });
    expect(malformed.status).toBe(400);
    expect(users.requests.length + reviews.requests.length).toBe(before);
    const key = { authorization: limitedKey };
    const deep = await post('/guarded', '{ me { reviews { author { name } } } }', key);
    expect(deep.status).toBe(403);
    expect(deep.json<{ error: string }>().error).toBe('depth limit exceeded');
    const restricted = await post('/guarded', '{ me { reviews { body } } }', key);
    expect(restricted.status).toBe(400);
    expect(restricted.json<GraphqlAnswer>().errors?.[0]?.message).toBe('field: body is restricted on type: Review');
    expect((await post('/guarded', '{ __schema { queryType { name } } }', key)).status).toBe(403);
    expect(users.requests.length + reviews.requests.length).toBe(before);
    expect((await post('/guarded', '{ me { name } }', key)).json<GraphqlAnswer>()).toEqual({ data: { me: { name: 'Ada' } } });
    const introspection = await post('/social', '{ __type(name: "User") { fields { name } } }');
    expect(
      introspection
        .json<{ data: { __type: { fields: { name: string }[] } } }>()
        .data.__type.fields.map((f) => f.name)
        .sort(),
    ).toEqual(['id', 'name', 'reviews']);
  });

  it('refuses a WebSocket upgrade (subscriptions) rather than tunnelling it to target_url', async () => {
    const before = users.requests.length;
    const refused = await handshake(`${gw.url}/social`, 'graphql-transport-ws');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ errors: [{ message: 'subscriptions are not served for supergraph APIs' }] });
    expect(users.requests.length).toBe(before);
  });

  it('refuses subgraphs that do not compose, naming the subgraph and the conflict', async () => {
    const refused = await gw.admin(
      'POST',
      '/gw/apis',
      supergraphApi('broken', [
        { name: 'reviews', url: reviews.url, sdl: REVIEWS_SDL },
        { name: 'people', url: users.url, sdl: CONFLICTING_SDL },
      ]),
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('do not compose');
    expect(refused.text).toContain('User.id');
    expect(refused.text).toContain('people');
  });

  it('returns partial data and an error when a subgraph does not answer, after its timeout', async () => {
    const hung = await startReviewsSubgraph();
    const api = supergraphApi('slow', [
      { name: 'users', url: users.url, sdl: USERS_SDL },
      { name: 'reviews', url: hung.url, sdl: REVIEWS_SDL, timeout_ms: 300 },
    ]);
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
    hung.hang();
    const result = await post('/slow', '{ me { name reviews { body } } }');
    expect(result.status).toBe(200);
    const answer = result.json<GraphqlAnswer>();
    expect(answer.data).toEqual({ me: { name: 'Ada', reviews: null } });
    expect(answer.errors?.map((e) => e.path)).toEqual([['me', 'reviews']]);
    expect(JSON.stringify(answer.errors)).not.toContain('representations'); // the subgraph request is not echoed
    expect(hung.requests.length).toBe(1);
  });
});
