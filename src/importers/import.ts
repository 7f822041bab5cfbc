// The importers' entry points, for the gateway command's import flags and the dashboard's /api/import endpoints:
// a document (OpenAPI/Swagger JSON or YAML, API Blueprint AST JSON, WSDL XML) becomes a new Classic API definition
// (importApi) or a new version of an existing one (importVersion). No I/O (an OpenAPI `$ref` outside the
// document is refused, never fetched), no clock, no random ids (a caller that needs an api_id passes one); async
// only because the `$ref` resolver is. CPU-bound on large documents: the dashboard runs them in a worker
// (import-worker.ts). Every refusal is an ImportError naming the parameter at fault.
import { ImportError } from './errors.ts';
import type { ImportedApi } from './imported-api.ts';
import { newDefinition } from './definition.ts';
import { readBlueprint } from './blueprint.ts';
import { readOpenApi } from './openapi.ts';
import type { ImportOptions, ImportResult, WsdlSelection } from './options.ts';
import { addVersion } from './version.ts';
import { readWsdl } from './wsdl.ts';

/**
 * A document to import. OpenAPI and Blueprint take the text or an already decoded value (which the OpenAPI reader
 * may change in place while resolving `$ref`s: pass a copy if you keep it); WSDL takes the XML text.
 */
export type ImportSource =
  { format: 'swagger'; document: unknown } | { format: 'blueprint'; document: unknown } | ({ format: 'wsdl'; document: string } & WsdlSelection);

export type ImportFormat = ImportSource['format'];

/** Reads the document into the intermediate form (exposed for callers that want to inspect before building). */
export async function readSource(source: ImportSource, options: ImportOptions): Promise<ImportedApi> {
  const imported = await readFormat(source, options);
  const limit = options.maxOperations;
  if (limit !== undefined && imported.endpoints.length > limit) {
    throw new ImportError(
      'maxOperations',
      `the document describes ${imported.endpoints.length} operations (path x method); at most ${limit} are accepted: {param}`,
    );
  }
  return imported;
}

async function readFormat(source: ImportSource, options: ImportOptions): Promise<ImportedApi> {
  switch (source.format) {
    case 'swagger':
      return readOpenApi(source.document, options);
    case 'blueprint':
      return readBlueprint(source.document, options);
    case 'wsdl':
      return readWsdl(source.document, { ...options, ...selection(source) });
  }
}

/** A new Classic API definition from the document (CLI --create-api; dashboard insert_into_api false). */
export async function importApi(source: ImportSource, options: ImportOptions = {}): Promise<ImportResult> {
  return newDefinition(await readSource(source, options), options);
}

/**
 * `existing` (a Classic API definition) with the document added as a new version (CLI --for-api + --as-version;
 * dashboard Import Version). The version is named by options.versionName, else by the document.
 */
export async function importVersion(existing: unknown, source: ImportSource, options: ImportOptions = {}): Promise<ImportResult> {
  return addVersion(existing, await readSource(source, options));
}

function selection(source: { serviceName?: string; portName?: string }): WsdlSelection {
  return {
    ...(source.serviceName !== undefined ? { serviceName: source.serviceName } : {}),
    ...(source.portName !== undefined ? { portName: source.portName } : {}),
  };
}
