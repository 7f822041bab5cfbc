// The federation samples (config/samples/federation/) pass admission, their SubGraphs compose, and the supergraph
// API, filled from its graph_ref as the operator fills it, loads on the gateway: a sample that drifted from the
// schema, the webhook, composition or the gateway loader would fail here rather than on a user's cluster.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { compileApi, parseClassic } from '../../gateway/definition/compile.ts';
import { composeSubgraphs } from '../../graphql-schema/compose.ts';
import { REPO_ROOT } from '../../up/paths.ts';
import type { ApiDefinitionObject, SubGraphObject, SuperGraphObject } from '../cluster/resources.ts';
import { apiDefinitionPayload } from '../translate/apidefinition.ts';
import { graphqlFromGraphRef } from '../translate/graph-ref.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { applyPatch } from './json-patch.ts';

type Sample = { kind: string; metadata: { name: string; namespace?: string }; spec: Record<string, unknown> };
const samples: Sample[] = ['users_subgraph.yaml', 'reviews_subgraph.yaml', 'social_supergraph.yaml'].flatMap((file) =>
  parseAllDocuments(readFileSync(join(REPO_ROOT, 'config', 'samples', 'federation', file), 'utf8')).map((d) => ({
    ...(d.toJS() as Sample),
    metadata: { ...(d.toJS() as Sample).metadata, namespace: 'samples' },
  })),
);
const of = <T>(kind: string) => samples.filter((s) => s.kind === kind) as unknown as T[];

describe('config/samples/federation', () => {
  it('the ApiDefinitions pass admission', () => {
    for (const api of of<Sample>('ApiDefinition'))
      expect(validateApiDefinition(applyPatch({ spec: api.spec }, defaultApiDefinition(api.spec)).spec).errors, api.metadata.name).toEqual([]);
  });

  it('the SuperGraph composes, and its API, filled from graph_ref, loads on the gateway with the composed schema', () => {
    const subgraphs = of<SubGraphObject>('SubGraph');
    const composed = composeSubgraphs(subgraphs.map((s) => ({ name: s.metadata.name, sdl: s.spec.sdl ?? '' })));
    if (!('publicSdl' in composed)) throw new Error(JSON.stringify(composed.problems));
    const supergraph = { ...of<SuperGraphObject>('SuperGraph')[0]!, status: { merged_sdl: composed.publicSdl } };
    const apis = of<ApiDefinitionObject>('ApiDefinition');
    const social = apis.find((a) => a.spec.graphql?.execution_mode === 'supergraph')!;
    const graphql = graphqlFromGraphRef('samples', social.spec, {
      subgraph: (key) => subgraphs.find((s) => `samples/${s.metadata.name}` === key),
      supergraph: (key) => (key === `samples/${supergraph.metadata.name}` ? supergraph : undefined),
      subgraphApi: (_ns, name) => apis.find((a) => a.spec.graph_ref === name && a.spec.graphql?.execution_mode === 'subgraph'),
    });
    const { graph_ref: _ref, ...spec } = social.spec;
    const payload = apiDefinitionPayload('samples', 'social', { ...spec, graphql }, 'org');
    const compiled = compileApi({ id: 'social', format: 'classic', definition: parseClassic(payload) });
    const user = compiled.graphql?.schema.getType('User');
    expect(user && isObjectType(user) ? Object.keys(user.getFields()).sort() : []).toEqual(['id', 'name', 'reviews']);
    expect(compiled.graphql?.supergraph?.subgraphs.map((s) => [s.name, s.url])).toEqual([
      ['users', 'http://127.0.0.1:4001'],
      ['reviews', 'http://127.0.0.1:4002'],
    ]);
  });
});
