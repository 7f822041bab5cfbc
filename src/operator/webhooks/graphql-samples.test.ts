// The GraphQL samples (config/samples/graphql/) pass admission, and the API sample loads on the gateway with its
// schema: a sample that drifted from the schema or the webhook would fail here rather than on a user's cluster.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import { compileApi, parseClassic } from '../../gateway/definition/compile.ts';
import { REPO_ROOT } from '../../up/paths.ts';
import { apiDefinitionPayload } from '../translate/apidefinition.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { applyPatch } from './json-patch.ts';
import { validateSecurityPolicy } from './securitypolicy.ts';

const sample = (file: string) =>
  parse(readFileSync(join(REPO_ROOT, 'config', 'samples', 'graphql', file), 'utf8')) as { metadata: { name: string }; spec: Record<string, unknown> };

describe('config/samples/graphql', () => {
  it('the proxy-only GraphQL API passes admission and loads on the gateway with its schema', () => {
    const { spec } = sample('countries_graphql.yaml');
    const defaulted = applyPatch({ spec }, defaultApiDefinition(spec)).spec;
    expect(validateApiDefinition(defaulted).errors).toEqual([]);
    const payload = apiDefinitionPayload('samples', 'countries-graphql', defaulted as ApiDefinitionSpec, 'org');
    const compiled = compileApi({ id: 'countries', format: 'classic', definition: parseClassic(payload) });
    expect(compiled.graphql?.schema.getQueryType()?.name).toBe('Query');
  });

  it('the policy with GraphQL limits passes admission', () => {
    const { spec } = sample('countries_graphql_policy.yaml');
    expect(validateSecurityPolicy(spec, { namespace: 'samples' }).errors).toEqual([]);
    expect(spec).toMatchObject({
      max_query_depth: 3,
      access_rights_array: [{ disable_introspection: true, restricted_types: [{ name: 'Country', fields: ['capital'] }] }],
    });
  });
});
