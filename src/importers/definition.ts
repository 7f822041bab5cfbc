// A new Classic API definition from an imported document. The shape (decided here, documented for users):
//   - active, keyless (`use_keyless: true`: the document's security schemes are not imported, so the API starts
//     open, as Tyk's importers make it; a warning says so);
//   - proxy: the listen path the importer chose, the upstream as target_url, strip_listen_path;
//   - one version, named by the option or the document, that is also the default version: requests that name no
//     version get it, and definition {location: header, key: x-api-version} is ready for versions added later
//     (--for-api / insert_into_api);
//   - the version's extended_paths: the document's endpoints (endpoints.ts).
import type { ClassicApiDefinition } from '../domain/classic.ts';
import { toExtendedPaths } from './endpoints.ts';
import { ImportError } from './errors.ts';
import type { ImportedApi } from './imported-api.ts';
import type { ImportOptions, ImportResult } from './options.ts';

export const VERSION_HEADER = 'x-api-version';

export function newDefinition(imported: ImportedApi, options: ImportOptions): ImportResult {
  if (!imported.upstreamUrl) {
    throw new ImportError('upstreamUrl', `${imported.format} imports need an upstream URL: ${imported.upstreamHint}; set {param}`);
  }
  const { extendedPaths, warnings } = toExtendedPaths(imported.endpoints);
  const version = imported.versionName;
  const definition: ClassicApiDefinition = {
    name: imported.name,
    ...(options.apiId ? { api_id: options.apiId } : {}),
    ...(options.orgId ? { org_id: options.orgId } : {}),
    active: true,
    use_keyless: true,
    proxy: { listen_path: imported.listenPath, target_url: imported.upstreamUrl, strip_listen_path: true },
    definition: { location: 'header', key: VERSION_HEADER },
    version_data: {
      not_versioned: false,
      default_version: version,
      versions: { [version]: { name: version, use_extended_paths: true, extended_paths: extendedPaths } },
    },
  };
  return {
    definition,
    warnings: [
      ...imported.warnings,
      ...warnings,
      'the API is keyless (open to every client): authentication is not imported; configure it before exposing the API',
    ],
  };
}
