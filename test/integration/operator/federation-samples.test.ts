// The shipped federation samples (config/samples/federation/) applied with kubectl on the real control plane, as
// the README tells users to, with only their upstream URLs pointed at two real subgraph servers on loopback: both
// subgraph APIs are served (the v1 SDL with `extend type Query`, the v2 SDL with `@link`), each answering its own
// queries and `_service`/`_entities` through the real gateway, the supergraph API answers a query needing both,
// and each SubGraph says Ready only once the API serving it is (WaitingForApi before that).
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { startReviewsSubgraph, startUsersSubgraph, USERS_SDL } from '../../support/federation-fixtures.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useFileNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import type { Subgraph } from '../../support/subgraph.ts';

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
}

const SAMPLES = new URL('../../../config/samples/federation/', import.meta.url);

/** Every sample file, the samples' upstream URLs replaced by the test's subgraph servers. */
function samples(urls: Record<string, string>): string {
  return readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => Object.entries(urls).reduce((text, [from, to]) => text.replaceAll(from, to), readFileSync(new URL(f, SAMPLES), 'utf8')))
    .join('\n---\n');
}

describe('shipped federation samples', () => {
  const ns = useFileNamespace('fedsamples');
  let gw: RunningGateway;
  let users: Subgraph;
  let reviews: Subgraph;
  const query = async (path: string, q: string, variables: Record<string, unknown> = {}) => {
    const answer = await gw.call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q, variables }) });
    return { status: answer.status, body: answer.json<GraphqlAnswer>() };
  };

  beforeAll(async () => {
    await installCrds();
    [users, reviews] = await Promise.all([startUsersSubgraph(), startReviewsSubgraph()]);
    gw = await startGateway();
    await startOperator({ gateway: gw, namespace: ns.name });
  });

  it('serves both subgraph APIs and the supergraph API once applied, and says Ready only when served', async () => {
    await kubectl(['apply', '-n', ns.name, '-f', '-'], { input: samples({ 'http://127.0.0.1:4001': users.url, 'http://127.0.0.1:4002': reviews.url }) });
    for (const api of ['users-subgraph', 'reviews-subgraph', 'social']) await waitFor('apidefinition', ns.name, api, synced);
    for (const name of ['users', 'reviews']) {
      const subgraph = await waitFor('subgraph', ns.name, name, (r) => ready(r)?.status === 'True');
      expect(ready(subgraph)).toMatchObject({ reason: 'Served', message: `served by ApiDefinition ${ns.name}/${name}-subgraph` });
    }
    expect(ready(await waitFor('supergraph', ns.name, 'social', (r) => ready(r)?.status === 'True'))?.reason).toBe('Composed');

    const me = await query('/users-subgraph/', '{ me { name } _service { sdl } }');
    expect(me.status).toBe(200);
    expect(me.body.data?.me).toEqual({ name: 'Ada' });
    expect((me.body.data?._service as { sdl: string }).sdl).toContain('extend type Query');
    const entities = await query('/users-subgraph/', 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { name } } }', {
      r: [{ __typename: 'User', id: '2' }],
    });
    expect(entities.body).toEqual({ data: { _entities: [{ name: 'Grace' }] } });
    expect((await query('/reviews-subgraph/', '{ reviews { body } }')).body).toEqual({ data: { reviews: [{ body: 'elegant' }, { body: 'thorough' }] } });
    // The served schema is still the subgraph's: a field it does not have is refused by the gateway.
    const typo = await query('/reviews-subgraph/', '{ reviews { bodyy } }');
    expect(typo.status).toBe(400);
    expect(typo.body.errors?.[0]?.message).toContain('Cannot query field "bodyy" on type "Review"');

    const social = await query('/social/', '{ me { name reviews { body } } }');
    expect(social).toEqual({ status: 200, body: { data: { me: { name: 'Ada', reviews: [{ body: 'thorough' }] } } } });
  });

  it('keeps a SubGraph no API serves not Ready (WaitingForApi), and Ready once an API serves it', async () => {
    await apply(ns.name, manifest('SubGraph', 'unserved', { sdl: USERS_SDL, schema: '' }));
    const waiting = await waitFor('subgraph', ns.name, 'unserved', (r) => ready(r) !== undefined);
    expect(ready(waiting)).toMatchObject({ status: 'False', reason: 'WaitingForApi' });
    await apply(
      ns.name,
      manifest('ApiDefinition', 'unserved-api', {
        name: 'unserved-api',
        use_keyless: true,
        graph_ref: 'unserved',
        graphql: { enabled: true, execution_mode: 'subgraph', version: '2' },
        proxy: { listen_path: '/unserved/', target_url: users.url, strip_listen_path: true },
      }),
    );
    expect(ready(await waitFor('subgraph', ns.name, 'unserved', (r) => ready(r)?.reason === 'Served'))?.status).toBe('True');
    expect((await query('/unserved/', '{ me { name } }')).body).toEqual({ data: { me: { name: 'Ada' } } });
  });
});
