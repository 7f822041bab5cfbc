// The load-balancing and OAS versioning samples (config/samples/httpbin_load_balancing.yaml, oas_versioning.yaml)
// pass admission or translation and load on the gateway as they say: two round-robin targets; a base API whose
// v2 version is the other resource's API id. A sample that drifted from the schemas would fail here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { GwOasApiDefinitionSpec } from '../../domain/crd/oasapidefinition.ts';
import { compileApi, parseClassic, parseOas } from '../../gateway/definition/compile.ts';
import { REPO_ROOT } from '../../up/paths.ts';
import { idFor } from '../sync/ids.ts';
import { apiDefinitionPayload } from '../translate/apidefinition.ts';
import { oasPayload, parseOasDocument } from '../translate/oas.ts';
import { withOasVersioning } from '../translate/oas-versioning.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { applyPatch } from './json-patch.ts';

type Manifest = { kind: string; metadata: { name: string }; spec: Record<string, unknown>; data?: Record<string, string> };
const manifests = (file: string): Manifest[] =>
  parseAllDocuments(readFileSync(join(REPO_ROOT, 'config', 'samples', file), 'utf8')).map((d) => d.toJS() as Manifest);

describe('config/samples load balancing and OAS versioning', () => {
  it('the load-balanced ApiDefinition passes admission and loads with its two targets', () => {
    const [{ spec }] = manifests('httpbin_load_balancing.yaml') as [Manifest];
    const defaulted = applyPatch({ spec }, defaultApiDefinition(spec)).spec;
    expect(validateApiDefinition(defaulted).errors).toEqual([]);
    const payload = apiDefinitionPayload('samples', 'httpbin-balanced', defaulted as ApiDefinitionSpec, 'org');
    const compiled = compileApi({ id: 'balanced', format: 'classic', definition: parseClassic(payload) });
    expect(compiled.loadBalancedTargets?.map((t) => `${t.origin}${t.basePath}`)).toEqual(['http://127.0.0.1:18080', 'http://127.0.0.1:18080/anything']);
  });

  it("the versioned base API loads with its v2 version as the other resource's API id", () => {
    const all = manifests('oas_versioning.yaml');
    const base = all.find((m) => m.kind === 'GwOasApiDefinition' && m.metadata.name === 'orders')!;
    const text = all.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'orders-oas')!.data!['oas.json']!;
    const spec = base.spec as z.infer<typeof GwOasApiDefinitionSpec>;
    const document = withOasVersioning(parseOasDocument(text, 'sample'), spec.versioning, 'samples', (r) => idFor(r.namespace, r.name));
    const compiled = compileApi({
      id: idFor('samples', 'orders'),
      format: 'oas',
      definition: parseOas(oasPayload(document, idFor('samples', 'orders'), 'org')),
    });
    expect(compiled.childVersions).toMatchObject({ name: 'v1', defaultVersion: 'v1', location: 'header', key: 'x-api-version' });
    expect([...compiled.childVersions!.versions]).toEqual([['v2', idFor('samples', 'orders-v2')]]);
  });
});
