// Adding an imported document to an existing Classic definition as a new version (CLI --for-api with
// --as-version; the dashboard's Import Version). The existing definition is kept as written (unknown keys too);
// only version_data changes:
//   - the new version gets the document's endpoints; its upstream becomes override_target when it differs from
//     the API's proxy.target_url (with no upstream, the version uses the API's);
//   - a version name already in use is refused;
//   - an API with no versions had the gateway's implicit `Default` version (top-level extended_paths): it is made
//     explicit so it keeps serving as the default;
//   - the API becomes versioned (not_versioned false) and keeps its default version, so clients that name no
//     version are served as before and select the new one by definition.location / key.
import { ClassicApiDefinition, type VersionInfo } from '../domain/classic.ts';
import { describeIssues } from '../domain/zod-issues.ts';
import { VERSION_HEADER } from './definition.ts';
import { toExtendedPaths } from './endpoints.ts';
import { ImportError } from './errors.ts';
import type { ImportedApi } from './imported-api.ts';
import type { ImportResult } from './options.ts';

const IMPLICIT_VERSION = 'Default';

export function addVersion(existing: unknown, imported: ImportedApi): ImportResult {
  const parsed = ClassicApiDefinition.safeParse(existing);
  if (!parsed.success) {
    throw new ImportError(
      'existingApi',
      `the existing API ({param}) is not a valid Classic API definition: ${describeIssues(parsed.error, { root: '(definition)', limit: 1 })}`,
    );
  }
  const api = parsed.data;
  const definition = structuredClone(existing) as ClassicApiDefinition;
  const name = imported.versionName;
  const warnings = [...imported.warnings];

  const versionData = { ...(definition.version_data ?? {}) };
  const versions: Record<string, VersionInfo> = { ...(versionData.versions ?? {}) };
  if (Object.keys(versions).length === 0) {
    versions[IMPLICIT_VERSION] = { name: IMPLICIT_VERSION, use_extended_paths: true };
    versionData.default_version ??= IMPLICIT_VERSION;
  }
  if (Object.hasOwn(versions, name)) {
    throw new ImportError('versionName', `the API already has a version named "${name}": choose another name with {param}`);
  }
  const existingNames = Object.keys(versions);
  if (!versionData.default_version && existingNames.length === 1) versionData.default_version = existingNames[0];
  if (versionData.not_versioned) {
    const location = api.definition?.location ?? 'header';
    const key = api.definition?.key ?? VERSION_HEADER;
    warnings.push(`the API was not versioned: it now selects the version by ${location} ${key} (default ${versionData.default_version ?? 'none'})`);
  }
  versionData.not_versioned = false;

  const { extendedPaths, warnings: pathWarnings } = toExtendedPaths(imported.endpoints);
  warnings.push(...pathWarnings);
  const version: VersionInfo = { name, use_extended_paths: true, extended_paths: extendedPaths };
  if (imported.upstreamUrl && imported.upstreamUrl !== api.proxy?.target_url) version.override_target = imported.upstreamUrl;
  versions[name] = version;
  versionData.versions = versions;
  definition.version_data = versionData;
  return { definition, warnings };
}
