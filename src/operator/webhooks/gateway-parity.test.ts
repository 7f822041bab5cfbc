// The admission webhook and the gateway's loader run one rule set (definition-rules/classic-definition.ts). This
// test, which may import both sides, checks it: every definition goes both ways (through defaulting + validation,
// and through the operator's translation into the gateway's own loader: parseClassic, checkApiId, compileApi); the
// two accept exactly the same definitions (what the gateway refuses beyond the rules — at compilation — would make
// the webhook admit a resource that never serves), and a refusal says the same words on both paths.
import { describe, expect, it } from 'vitest';
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import { classicDefinitionProblems } from '../../definition-rules/classic-definition.ts';
import { gatewayMessage } from '../../definition-rules/problems.ts';
import { checkApiId, compileApi, parseClassic } from '../../gateway/definition/compile.ts';
import type { StoredApi } from '../../gateway/store/store.ts';
import { apiDefinitionPayload } from '../translate/apidefinition.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { applyPatch } from './json-patch.ts';
import { CASES } from './testdata/parity-cases.ts';

/** What the operator puts in the payload for a Secret: the id the gateway answered for its certificate. */
const SECRET_IDS = { certificate: (secret: string) => `org${Buffer.from(secret).toString('hex').padEnd(64, '0')}` };

/** The gateway's refusal of the definition the operator would sync for this spec, or undefined when it loads. */
function gatewayRefusal(spec: Record<string, unknown>): string | undefined {
  try {
    const payload = apiDefinitionPayload('ns', 'parity', spec as ApiDefinitionSpec, 'org', SECRET_IDS);
    const definition = parseClassic(payload);
    checkApiId(payload.api_id as string);
    const stored: StoredApi = { id: payload.api_id as string, format: 'classic', definition };
    compileApi(stored);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function gatewayAccepts(spec: Record<string, unknown>): boolean {
  return gatewayRefusal(spec) === undefined;
}

function webhookErrors(spec: Record<string, unknown>): ReturnType<typeof validateApiDefinition>['errors'] {
  const defaulted = applyPatch({ spec }, defaultApiDefinition(spec)).spec;
  return validateApiDefinition(defaulted).errors;
}

function webhookAccepts(spec: Record<string, unknown>): boolean {
  return webhookErrors(spec).length === 0;
}

/** The first problem the rule set finds in the definition the gateway loads for this spec (base '': no `spec.`). */
function firstRuleProblem(spec: Record<string, unknown>): ReturnType<typeof classicDefinitionProblems>[number] | undefined {
  const payload = apiDefinitionPayload('ns', 'parity', spec as ApiDefinitionSpec, 'org', SECRET_IDS);
  try {
    return classicDefinitionProblems(parseClassic(payload), '')[0];
  } catch {
    return undefined; // refused by the schema before any rule runs
  }
}

describe('the webhook accepts exactly the ApiDefinitions the gateway loads', () => {
  for (const [name, spec] of Object.entries(CASES)) {
    it(name, () => {
      const clean = JSON.parse(JSON.stringify(spec)) as Record<string, unknown>;
      expect(webhookAccepts(clean)).toBe(gatewayAccepts(clean));
    });
  }

  it('accepts circuit breakers and response caching as Tyk writes them, and refuses what cannot be honoured', () => {
    const accepted = (name: string): boolean => gatewayAccepts(JSON.parse(JSON.stringify(CASES[name])) as Record<string, unknown>);
    for (const name of [
      'circuit breaker',
      'circuit breaker without half-open state, in a version',
      'cache enabled',
      'cached paths',
      'cache options with cached paths and advanced entries',
    ]) {
      expect(accepted(name), name).toBe(true);
    }
    for (const name of [
      'circuit breaker without samples',
      'circuit breaker with a zero threshold',
      'circuit breaker with a threshold above 1',
      'advanced cache entry for POST',
      'cache with a response code out of range',
    ]) {
      expect(accepted(name), name).toBe(false);
    }
  });

  it('refuses with the same words on both paths: the rule set decides, each path only frames the problem', () => {
    let compared = 0;
    for (const [name, raw] of Object.entries(CASES)) {
      const spec = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
      const problem = firstRuleProblem(spec);
      if (!problem) continue;
      compared++;
      expect(gatewayRefusal(spec), name).toBe(gatewayMessage(problem));
      // The webhook reports the same kind and words, with spec. before the paths (inside the words too). The field
      // may be the operator's own that the translation turns into the gateway's (upstream_certificate_refs).
      const webhook = webhookErrors(spec).map((error) => ({ type: error.type, message: error.message.replaceAll('spec.', '') }));
      expect(webhook, name).toContainEqual({ type: problem.type, message: problem.message });
    }
    expect(compared).toBeGreaterThan(15);
  });

  it('says what Tyk-style keyless-with-standard-auth is refused for in one sentence, on both paths', () => {
    const spec = JSON.parse(JSON.stringify(CASES['keyless and standard auth'])) as Record<string, unknown>;
    expect(gatewayRefusal(spec)).toBe('use_keyless: a keyless API cannot also use standard auth (use_standard_auth); set one of them');
    expect(webhookErrors(spec)).toContainEqual(
      expect.objectContaining({ field: 'spec.use_keyless', message: 'a keyless API cannot also use standard auth (spec.use_standard_auth); set one of them' }),
    );
  });

  it('covers accepted and refused definitions alike', () => {
    const outcomes = Object.values(CASES).map((spec) => gatewayAccepts(JSON.parse(JSON.stringify(spec)) as Record<string, unknown>));
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(8);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(15);
  });
});
