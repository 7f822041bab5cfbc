// Compiles an OAS base API's info.versioning (Tyk's OAS versioning: each version is an API of its own, named by id)
// into ChildVersioning, once at load. Refused naming the field: a urlVersioningPattern RE2 cannot compile (a
// missing key, a version listed twice and an unknown default are refused before: definition-rules/oas-definition.ts). The request side is middleware/routing/version-routing.ts.
import { RE2JS } from 're2js';
import { GW_EXTENSION, type GwExtension } from '../../domain/oas.ts';
import { DefinitionError, type ChildVersioning } from './api-spec.ts';

export { SELF_VERSION } from '../../definition-rules/oas-definition.ts';

export function oasChildVersioning(info: GwExtension['info']): ChildVersioning | undefined {
  const versioning = info.versioning;
  if (!versioning?.enabled) return undefined;
  const field = `${GW_EXTENSION}.info.versioning`;
  const location = versioning.location ?? 'header';
  const key = versioning.key ?? '';
  const versions = new Map((versioning.versions ?? []).map(({ name, id }) => [name, id]));
  const name = versioning.name ?? '';
  const defaultVersion = versioning.default ?? '';
  return {
    name,
    defaultVersion,
    location,
    key,
    fallbackToDefault: versioning.fallbackToDefault ?? false,
    stripVersioningData: versioning.stripVersioningData ?? false,
    ...(location === 'url' && versioning.urlVersioningPattern
      ? { urlPattern: compilePattern(versioning.urlVersioningPattern, `${field}.urlVersioningPattern`) }
      : {}),
    versions,
  };
}

function compilePattern(source: string, field: string): { test(segment: string): boolean } {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    throw new DefinitionError(`${field} is not an RE2 pattern: ${(error as Error).message}`);
  }
}
