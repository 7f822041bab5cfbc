// GraphQL federation on the real control plane: SubGraphs and a SuperGraph applied with kubectl, composed by the
// operator (status.merged_sdl, Ready), an ApiDefinition per SubGraph (execution_mode subgraph, graph_ref) whose
// target_url is the subgraph's server, and a supergraph ApiDefinition (graph_ref: the SuperGraph) the operator
// fills with the subgraphs, their URLs and SDLs; a query through the real gateway needs an entity from each of two
// real subgraph servers on loopback. A SubGraph's change reaches the supergraph API; subgraphs that do not compose
// are a condition and a Warning Event on the SuperGraph (kubectl describe) naming the subgraph and the conflict; a
// SubGraph in use is not deleted, naming its users.
import { beforeAll, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { CONFLICTING_SDL, REVIEWS_SDL, startReviewsSubgraph, startUsersSubgraph, USERS_SDL } from '../../support/federation-fixtures.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, events, get, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { startSubgraph, type Subgraph } from '../../support/subgraph.ts';
import { waitUntil } from '../../support/wait.ts';

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
}

describe('GraphQL federation resources', () => {
  const ns = useNamespace('fed');
  let gw: RunningGateway;
  let users: Subgraph;
  let reviews: Subgraph;

  const subgraphApi = (name: string, graph: string, url: string) =>
    manifest('ApiDefinition', name, {
      name,
      use_keyless: true,
      graph_ref: graph,
      graphql: { enabled: true, execution_mode: 'subgraph', version: '2' },
      proxy: { listen_path: `/${name}`, target_url: url, strip_listen_path: true },
    });
  const supergraphApi = (name: string, graph: string) =>
    manifest('ApiDefinition', name, {
      name,
      use_keyless: true,
      graph_ref: graph,
      graphql: { enabled: true, execution_mode: 'supergraph', version: '2' },
      proxy: { listen_path: `/${name}`, target_url: users.url, strip_listen_path: true },
    });
  const query = (path: string, q: string) =>
    gw.call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });

  beforeAll(async () => {
    await installCrds();
    [users, reviews] = await Promise.all([startUsersSubgraph(), startReviewsSubgraph()]);
  });

  /** A gateway and an operator for the test's namespace; `federated`: the two SubGraphs, their APIs, the SuperGraph and its API. */
  const setUp = async (federated = true) => {
    gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name });
    if (!federated) return;
    await apply(
      ns.name,
      manifest('SubGraph', 'users', { sdl: USERS_SDL, schema: '' }),
      manifest('SubGraph', 'reviews', { sdl: REVIEWS_SDL, schema: '' }),
      subgraphApi('users-api', 'users', users.url),
      subgraphApi('reviews-api', 'reviews', reviews.url),
      manifest('SuperGraph', 'social', { subgraph_refs: [{ name: 'users' }, { name: 'reviews' }] }),
      supergraphApi('social-api', 'social'),
    );
    await waitFor('apidefinition', ns.name, 'social-api', synced);
  };

  it('composes the SuperGraph and serves a query needing an entity from each subgraph through the supergraph API', async () => {
    await setUp();
    const social = await waitFor('supergraph', ns.name, 'social', (r) => ready(r)?.reason === 'Composed');
    expect(social?.status?.merged_sdl).toContain('reviews: [Review!]');
    expect(social?.status?.merged_sdl).not.toContain('@key');
    expect(social?.metadata.finalizers).toContain('finalizers.gw.io/supergraph');
    await waitFor('apidefinition', ns.name, 'social-api', synced);
    const usersGraph = await waitFor(
      'subgraph',
      ns.name,
      'users',
      (r) => r?.status?.linked_by_api !== undefined && (r.status.linked_by_supergraphs as string[] | undefined)?.length === 1,
    );
    expect(usersGraph?.status).toMatchObject({ linked_by_api: idFor(ns.name, 'users-api'), linked_by_supergraphs: [`${ns.name}/social`] });
    expect((await get('apidefinition', ns.name, 'users-api'))?.status?.linked_to_subgraph).toBe('users');

    const stored = (await gw.admin('GET', `/gw/apis/${idFor(ns.name, 'social-api')}`)).json<{
      graph_ref?: string;
      graphql: { supergraph: { subgraphs: { name: string; url: string }[] } };
    }>();
    expect(stored.graph_ref).toBeUndefined();
    expect(stored.graphql.supergraph.subgraphs.map((s) => [s.name, s.url])).toEqual([
      ['users', users.url],
      ['reviews', reviews.url],
    ]);

    const before = { users: users.requests.length, reviews: reviews.requests.length };
    const result = await query('/social-api', '{ reviews { body author { name } } me { name reviews { body } } }');
    expect(result.status).toBe(200);
    expect(result.json<GraphqlAnswer>()).toEqual({
      data: {
        reviews: [
          { body: 'elegant', author: { name: 'Grace' } },
          { body: 'thorough', author: { name: 'Ada' } },
        ],
        me: { name: 'Ada', reviews: [{ body: 'thorough' }] },
      },
    });
    expect(users.requests.slice(before.users).some((r) => r.body.includes('_entities'))).toBe(true);
    expect(reviews.requests.slice(before.reviews).some((r) => r.body.includes('_entities'))).toBe(true);
  });

  it('sends a SubGraph change, and its API moving to another server, to the supergraph API using it', async () => {
    await setUp();
    await apply(ns.name, manifest('SubGraph', 'users', { sdl: USERS_SDL.replace('name: String', 'name: String\n  nickname: String'), schema: '' }));
    const fields = async () =>
      (await query('/social-api', '{ __type(name: "User") { fields { name } } }'))
        .json<{ data?: { __type?: { fields: { name: string }[] } } }>()
        .data?.__type?.fields.map((f) => f.name) ?? [];
    await waitUntil(
      () => `User.nickname on the supergraph API; fields: ${JSON.stringify(fields)}`,
      async () => (await fields()).includes('nickname'),
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect((await get('supergraph', ns.name, 'social'))?.status?.merged_sdl).toContain('nickname');

    // The subgraph API moving to another server moves the supergraph's subgraph URL with it.
    const moved = await startSubgraph(USERS_SDL, { me: () => ({ id: '1', name: 'Ada Lovelace' }) }, { User: (r) => ({ id: r.id, name: 'Ada Lovelace' }) });
    await apply(ns.name, subgraphApi('users-api', 'users', moved.url));
    const me = async () => (await query('/social-api', '{ me { name } }')).json<GraphqlAnswer>().data?.me;
    // Well under the 30 s retry of waiting resources: the change must be sent, not found by a later retry.
    await waitUntil(
      'the supergraph API to query the moved users subgraph',
      async () => JSON.stringify(await me()) === JSON.stringify({ name: 'Ada Lovelace' }),
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(moved.requests.length).toBeGreaterThan(0);
  });

  it('reports subgraphs that do not compose on the SuperGraph, naming the subgraph and the conflict', async () => {
    await setUp(false);
    await apply(
      ns.name,
      manifest('SubGraph', 'reviews', { sdl: REVIEWS_SDL, schema: '' }),
      manifest('SubGraph', 'people', { sdl: CONFLICTING_SDL, schema: '' }),
      manifest('SuperGraph', 'broken', { subgraph_refs: [{ name: 'reviews' }, { name: 'people' }] }),
    );
    const broken = await waitFor('supergraph', ns.name, 'broken', (r) => ready(r)?.reason === 'CompositionFailed');
    expect(ready(broken)?.status).toBe('False');
    expect(ready(broken)?.message).toContain('User.id');
    expect(ready(broken)?.message).toContain('people');
    expect(broken?.status?.merged_sdl).toBeUndefined();
    expect((await events(ns.name, 'broken')).some((e) => e.type === 'Warning' && e.reason === 'CompositionFailed' && e.message.includes('people'))).toBe(true);
    const described = await kubectl(['describe', 'supergraph', '-n', ns.name, 'broken']);
    expect(described.stdout).toContain('CompositionFailed');
  });

  it('does not delete a SubGraph while a SuperGraph or an ApiDefinition uses it, nor a SuperGraph while an API serves it, naming them', async () => {
    await setUp();
    await kubectl(['delete', 'subgraph', '-n', ns.name, 'users', '--wait=false']);
    const blocked = await waitFor('subgraph', ns.name, 'users', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(blocked)?.message).toBe(`not deleted while SuperGraph ${ns.name}/social, ApiDefinition ${ns.name}/users-api still use it`);
    expect((await events(ns.name, 'users')).some((e) => e.type === 'Warning' && e.reason === 'DeletionBlocked')).toBe(true);
    expect((await query('/social-api', '{ me { name } }')).json<GraphqlAnswer>()).toEqual({ data: { me: { name: 'Ada' } } }); // still served

    await kubectl(['delete', 'supergraph', '-n', ns.name, 'social', '--wait=false']);
    const supergraphBlocked = await waitFor('supergraph', ns.name, 'social', (r) => ready(r)?.reason === 'DeletionBlocked');
    expect(ready(supergraphBlocked)?.message).toBe(`not deleted while ApiDefinition ${ns.name}/social-api still uses it`);

    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'social-api', '--timeout=30s']);
    // Deadlines well under the 30 s retry of blocked deletions: the user's deletion must release the graph at once.
    await waitFor('supergraph', ns.name, 'social', (r) => r === undefined, 15_000);
    // The SuperGraph's deletion re-queues the SubGraph, which then names only what still uses it.
    const stillBlocked = `not deleted while ApiDefinition ${ns.name}/users-api still uses it`;
    await waitFor('subgraph', ns.name, 'users', (r) => ready(r)?.message === stillBlocked, 15_000);
    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'users-api', '--timeout=30s']);
    await waitFor('subgraph', ns.name, 'users', (r) => r === undefined, 15_000);
  });
});
