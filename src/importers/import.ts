// The importers' entry points, for the gateway command's import flags and the dashboard's /api/import endpoints:
// a document (OpenAPI/Swagger JSON, API Blueprint AST JSON, WSDL XML) becomes a new Classic API definition
// (importApi) or a new version of an existing one (importVersion). Pure functions: no I/O, no clock, no random
// ids (a caller that needs an api_id passes one). Every refusal is an ImportError naming the parameter at fault.
import type { ImportedApi } from './imported-api.ts';
import { newDefinition } from './definition.ts';
import { readBlueprint } from './blueprint.ts';
import { readOpenApi } from './openapi.ts';
import type { ImportOptions, ImportResult, WsdlSelection } from './options.ts';
import { addVersion } from './version.ts';
import { readWsdl } from './wsdl.ts';

/** A document to import. JSON formats take the text or an already decoded value; WSDL takes the XML text. */
export type ImportSource =
  | { format: 'swagger'; document: unknown }
  | { format: 'blueprint'; document: unknown }
  | ({ format: 'wsdl'; document: string } & WsdlSelection);

export type ImportFormat = ImportSource['format'];

/** Reads the document into the intermediate form (exposed for callers that want to inspect before building). */
export function readSource(source: ImportSource, options: ImportOptions): ImportedApi {
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
export function importApi(source: ImportSource, options: ImportOptions = {}): ImportResult {
  return newDefinition(readSource(source, options), options);
}

/**
 * `existing` (a Classic API definition) with the document added as a new version (CLI --for-api + --as-version;
 * dashboard Import Version). The version is named by options.versionName, else by the document.
 */
export function importVersion(existing: unknown, source: ImportSource, options: ImportOptions = {}): ImportResult {
  return addVersion(existing, readSource(source, options));
}

function selection(source: { serviceName?: string; portName?: string }): WsdlSelection {
  return {
    ...(source.serviceName !== undefined ? { serviceName: source.serviceName } : {}),
    ...(source.portName !== undefined ? { portName: source.portName } : {}),
  };
}
