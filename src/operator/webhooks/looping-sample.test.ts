// The internal looping sample (config/samples/looping.yaml): every ApiDefinition passes admission, translates and
// loads; the entry API's rewrite_to_internal references (no namespace: the resource's) become tyk:// loops to the
// other resources' API ids, which are Tyk Operator's ids for them, and the targets are internal APIs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import { compileApi, parseClassic } from '../../gateway/definition/compile.ts';
import { REPO_ROOT } from '../../up/paths.ts';
import { idFor } from '../sync/ids.ts';
import { apiDefinitionPayload } from '../translate/apidefinition.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { applyPatch } from './json-patch.ts';

type Manifest = { metadata: { name: string }; spec: Record<string, unknown> };

describe('config/samples/looping.yaml', () => {
  const manifests = parseAllDocuments(readFileSync(join(REPO_ROOT, 'config', 'samples', 'looping.yaml'), 'utf8')).map((d) => d.toJS() as Manifest);
  const load = (name: string) => {
    const { spec } = manifests.find((m) => m.metadata.name === name)!;
    const defaulted = applyPatch({ spec }, defaultApiDefinition(spec)).spec;
    expect(validateApiDefinition(defaulted).errors).toEqual([]);
    const payload = apiDefinitionPayload('samples', name, defaulted as ApiDefinitionSpec, 'org');
    return compileApi({ id: idFor('samples', name), format: 'classic', definition: parseClassic(payload) });
  };

  it('loops basic-auth requests and the rest into the two internal APIs, by their resources in the same namespace', () => {
    const entry = load('httpbin-any-auth');
    const [rule] = entry.versions.get('Default')!.urlRewrites;
    expect(rule!.loops).toBe(true);
    expect(rule!.rewriteTo.parts).toEqual([`tyk://${idFor('samples', 'httpbin-token-auth')}/$1`]);
    expect(rule!.triggers[0]!.rewriteTo.parts).toEqual([`tyk://${idFor('samples', 'httpbin-basic-auth')}/$1`]);
    const basic = load('httpbin-basic-auth');
    expect(basic.internal).toBe(true);
    expect(basic.basic).toBeDefined();
    expect(load('httpbin-token-auth')).toMatchObject({ internal: true, auth: { kind: 'token' } });
  });
});
