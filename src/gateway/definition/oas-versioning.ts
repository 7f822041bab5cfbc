// Compiles an OAS base API's info.versioning (Tyk's OAS versioning: each version is an API of its own, named by id)
// into ChildVersioning, once at load. Refused naming the field: a location needing a key without one, a default
// that is neither this API's name, `self`, nor a listed version, a version listed twice, and a
// urlVersioningPattern RE2 cannot compile. The request side is middleware/routing/version-routing.ts.
import { RE2JS } from 're2js';
import { GW_EXTENSION, type GwExtension } from '../../domain/oas.ts';
import { DefinitionError, type ChildVersioning } from './api-spec.ts';

/** The name Tyk Gateway gives "this API itself" as a version. */
export const SELF_VERSION = 'self';

export function oasChildVersioning(info: GwExtension['info']): ChildVersioning | undefined {
  const versioning = info.versioning;
  if (!versioning?.enabled) return undefined;
  const field = `${GW_EXTENSION}.info.versioning`;
  const location = versioning.location ?? 'header';
  const key = versioning.key ?? '';
  if (location !== 'url' && !key) throw new DefinitionError(`${field}.key is required when location is ${location}`);
  const versions = new Map<string, string>();
  (versioning.versions ?? []).forEach(({ name, id }, index) => {
    if (versions.has(name)) throw new DefinitionError(`${field}.versions[${index}].name ${name} is listed twice`);
    versions.set(name, id);
  });
  const name = versioning.name ?? '';
  const defaultVersion = versioning.default ?? '';
  if (defaultVersion && defaultVersion !== name && defaultVersion !== SELF_VERSION && !versions.has(defaultVersion)) {
    throw new DefinitionError(`${field}.default names a version that is neither this API (${name || SELF_VERSION}) nor in versions: ${defaultVersion}`);
  }
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
