import { describe, expect, it } from 'vitest';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import { InvalidSpecError, WaitingError } from '../sync/errors.ts';
import type { ApiDefinitionObject, SubGraphObject, SuperGraphObject } from '../cluster/resources.ts';
import { graphqlFromGraphRef, type GraphLookups } from './graph-ref.ts';

const subgraph = (name: string, sdl: string, schema = ''): SubGraphObject => ({ metadata: { name, namespace: 'ns' }, spec: { sdl, schema } });
const api = (name: string, graphRef: string, url: string): ApiDefinitionObject => ({
  metadata: { name, namespace: 'ns' },
  spec: { name, graph_ref: graphRef, graphql: { enabled: true, execution_mode: 'subgraph' }, proxy: { listen_path: `/${name}`, target_url: url } },
});
const supergraph = (merged?: string): SuperGraphObject => ({
  metadata: { name: 'social', namespace: 'ns' },
  spec: { subgraph_refs: [{ name: 'users' }, { name: 'reviews' }] },
  ...(merged
    ? { status: { merged_sdl: merged } }
    : {
        status: {
          conditions: [{ type: 'Ready', status: 'False', reason: 'CompositionFailed', message: 'the subgraphs do not compose: X', lastTransitionTime: 't' }],
        },
      }),
});

function lookups(objects: { subgraphs?: SubGraphObject[]; supergraph?: SuperGraphObject; apis?: ApiDefinitionObject[] }): GraphLookups {
  return {
    subgraph: (key) => objects.subgraphs?.find((s) => `ns/${s.metadata.name}` === key),
    supergraph: (key) => (objects.supergraph && key === 'ns/social' ? objects.supergraph : undefined),
    subgraphApi: (_ns, name) => objects.apis?.find((a) => a.spec.graph_ref === name),
  };
}

const spec = (mode: string, graphRef: string): ApiDefinitionSpec => ({
  name: 'x',
  graph_ref: graphRef,
  graphql: { enabled: true, execution_mode: mode as 'subgraph' },
  proxy: { listen_path: '/x', target_url: 'http://x' },
});

describe('graphqlFromGraphRef', () => {
  it('subgraph mode: the SubGraph schema (its sdl when empty) and sdl', () => {
    const users = subgraph('users', 'type Query { me: String }');
    expect(graphqlFromGraphRef('ns', spec('subgraph', 'users'), lookups({ subgraphs: [users] }))).toMatchObject({
      schema: 'type Query { me: String }',
      subgraph: { sdl: 'type Query { me: String }' },
    });
    expect(() => graphqlFromGraphRef('ns', spec('subgraph', 'nobody'), lookups({}))).toThrow(new WaitingError('SubGraph ns/nobody (graph_ref) does not exist'));
  });

  it("reads graph_ref from spec.graphql.graph_ref (Tyk Operator's place) too, and leaves it out of the section", () => {
    const users = subgraph('users', 'type Query { me: String }');
    const placed: ApiDefinitionSpec = {
      name: 'x',
      graphql: { enabled: true, execution_mode: 'subgraph', graph_ref: 'users' },
      proxy: { listen_path: '/x', target_url: 'http://x' },
    };
    const graphql = graphqlFromGraphRef('ns', placed, lookups({ subgraphs: [users] }));
    expect(graphql).toMatchObject({ schema: 'type Query { me: String }', subgraph: { sdl: 'type Query { me: String }' } });
    expect(graphql).not.toHaveProperty('graph_ref');
  });

  it('supergraph mode: one entry per SubGraph with the URL of the API serving it, and the merged SDL', () => {
    const objects = {
      subgraphs: [subgraph('users', 'U'), { ...subgraph('reviews', 'R'), spec: { sdl: 'R', timeout_ms: 250 } }],
      supergraph: supergraph('type Query { me: String }'),
      apis: [api('users-api', 'users', 'http://u'), api('reviews-api', 'reviews', 'http://r')],
    };
    expect(graphqlFromGraphRef('ns', spec('supergraph', 'social'), lookups(objects))).toMatchObject({
      schema: 'type Query { me: String }',
      supergraph: {
        merged_sdl: 'type Query { me: String }',
        subgraphs: [
          { name: 'users', url: 'http://u', sdl: 'U' },
          { name: 'reviews', url: 'http://r', sdl: 'R', timeout_ms: 250 },
        ],
      },
    });
  });

  it('waits, naming why, for a SuperGraph missing or not composed, or a SubGraph no API serves; refuses graph_ref in another mode', () => {
    const subgraphs = [subgraph('users', 'U'), subgraph('reviews', 'R')];
    expect(() => graphqlFromGraphRef('ns', spec('supergraph', 'social'), lookups({}))).toThrow(
      new WaitingError('SuperGraph ns/social (graph_ref) does not exist'),
    );
    expect(() => graphqlFromGraphRef('ns', spec('supergraph', 'social'), lookups({ subgraphs, supergraph: supergraph() }))).toThrow(
      new WaitingError('SuperGraph ns/social is not composed yet: the subgraphs do not compose: X'),
    );
    expect(() =>
      graphqlFromGraphRef(
        'ns',
        spec('supergraph', 'social'),
        lookups({ subgraphs, supergraph: supergraph('S'), apis: [api('users-api', 'users', 'http://u')] }),
      ),
    ).toThrow(
      new WaitingError(
        'SubGraph ns/reviews (of SuperGraph ns/social) is served by no ApiDefinition (graph_ref, execution_mode subgraph) with a proxy.target_url',
      ),
    );
    expect(() => graphqlFromGraphRef('ns', spec('proxyOnly', 'social'), lookups({}))).toThrow(
      new InvalidSpecError('graph_ref needs graphql.execution_mode subgraph (a SubGraph) or supergraph (a SuperGraph), not "proxyOnly"'),
    );
  });
});
