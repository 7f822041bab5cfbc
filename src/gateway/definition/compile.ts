// The one way in for API definitions, whatever their source (management API, app_path files, the dashboard):
// parse (zod: shape and types), compile (semantics: what the gateway can honour), or say why not, naming the field.
// A definition accepted here is one the router will load; one refused here is never half-loaded.
import { ClassicApiDefinition } from '../../domain/classic.ts';
import { GW_EXTENSION, OasDocument } from '../../domain/oas.ts';
import { describeIssues } from '../../domain/zod-issues.ts';
import { checkApiId as apiIdProblems } from '../../definition-rules/proxy.ts';
import { gatewayMessage } from '../../definition-rules/problems.ts';
import type { StoredApi } from '../store/store.ts';
import { DefinitionError, type ApiSpec } from './api-spec.ts';
import { classicToSpec } from './from-classic.ts';
import { oasToSpec } from './from-oas.ts';

export { DefinitionError };

export function parseClassic(body: unknown): ClassicApiDefinition {
  const parsed = ClassicApiDefinition.safeParse(body);
  if (!parsed.success) throw new DefinitionError(describeIssues(parsed.error));
  return parsed.data;
}

export const MISSING_EXTENSION = `the payload should contain ${GW_EXTENSION}`;

/** An OAS API definition must carry the gateway section. */
export function hasGwExtension(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && GW_EXTENSION in body;
}

/** The whole OAS document as posted (unknown keys kept), checked for the parts the gateway acts on. */
export function parseOas(body: unknown): Record<string, unknown> {
  if (!hasGwExtension(body)) throw new DefinitionError(MISSING_EXTENSION);
  const parsed = OasDocument.safeParse(body);
  if (!parsed.success) throw new DefinitionError(describeIssues(parsed.error));
  return parsed.data;
}

/** Whether a stored definition should be routed (`active`, default true; OAS info.state.active). */
export function isActive(api: StoredApi): boolean {
  if (api.format === 'oas') return (api.definition as OasDocument)[GW_EXTENSION].info.state.active;
  return (api.definition as ClassicApiDefinition).active !== false;
}

export function compileApi(api: StoredApi): ApiSpec {
  if (api.format === 'oas') return oasToSpec(OasDocument.parse(api.definition), api.id);
  return classicToSpec(ClassicApiDefinition.parse(api.definition), api.id);
}

/** An API id must be usable in a URL path and a file name (the admission webhook's rule, definition-rules/proxy.ts). */
export function checkApiId(id: string, field = 'api_id'): void {
  const [problem] = apiIdProblems(id, field);
  if (problem) throw new DefinitionError(gatewayMessage(problem));
}
