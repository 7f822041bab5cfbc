// The gateway command's import mode (`gw gateway --import-swagger=<file> ...`, gw\'s documented command-line import):
// reads the files named by the flags, runs the importers, writes the resulting Classic definition (JSON) to
// stdout and each warning to stderr. Refusals go to stderr naming the file and the flag, exit code 2.
//   --create-api                           a new definition (api_id generated here, so the file can go straight
//                                          into a file-mode gateway's app_path)
//   --for-api=<definition file> --as-version=<name>   that definition plus the document as a new version
// --import-wsdl, --wsdl-service and --wsdl-port are additions to gw's documented flag table (the dashboard's WSDL
// import takes an optional service name and port).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CLI_FLAGS, ImportError } from './errors.ts';
import { importApi, importVersion, type ImportSource } from './import.ts';
import type { ImportOptions } from './options.ts';

/** parseArgs options of the import flags. */
export const IMPORT_FLAGS = {
  'import-swagger': { type: 'string' },
  'import-blueprint': { type: 'string' },
  'import-wsdl': { type: 'string' },
  'wsdl-service': { type: 'string' },
  'wsdl-port': { type: 'string' },
  'create-api': { type: 'boolean' },
  'org-id': { type: 'string' },
  'upstream-target': { type: 'string' },
  'for-api': { type: 'string' },
  'as-version': { type: 'string' },
  'as-mock': { type: 'boolean' },
} as const;

export type ImportFlagValues = { [K in keyof typeof IMPORT_FLAGS]?: (typeof IMPORT_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

export const IMPORT_USAGE = `Import (prints a Classic API definition on stdout, warnings on stderr; exit 2 on a refused import):
  --import-swagger=FILE     an OpenAPI 2.0 (Swagger) or 3.0 JSON document (the version is detected)
  --import-blueprint=FILE   an API Blueprint AST JSON document
  --import-wsdl=FILE        a WSDL 1.1 document [--wsdl-service=NAME] [--wsdl-port=NAME] (default: the first
                            service, its first SOAP port)
  --create-api              create a new API definition
  --for-api=FILE            add the document as a new version of the API definition in FILE (needs --as-version)
  --as-version=NAME         name of the imported version (default: the document's version, else Default)
  --upstream-target=URL     the upstream (required for OpenAPI 2.0; otherwise overrides the document's)
  --org-id=ID               org_id of a created API
  --as-mock                 API Blueprint only: answer the example responses as mocks
`;

const SOURCES = ['import-swagger', 'import-blueprint', 'import-wsdl'] as const;

/** True when any import flag is present: the command imports instead of running a gateway. */
export function wantsImport(values: ImportFlagValues): boolean {
  return (Object.keys(IMPORT_FLAGS) as (keyof ImportFlagValues)[]).some((flag) => values[flag] !== undefined);
}

export interface ImportIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
}

const processIo: ImportIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path, 'utf8'),
};

class UsageError extends Error {}

export async function runImport(values: ImportFlagValues, io: ImportIo = processIo): Promise<number> {
  const fail = (message: string): number => {
    io.stderr(`gw gateway: ${message}\n`);
    return 2;
  };
  let plan: ReturnType<typeof planImport>;
  try {
    plan = planImport(values);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    throw error;
  }
  const { flag, file } = plan;
  let text: string;
  try {
    text = io.readFile(file);
  } catch (error) {
    return fail(`cannot read ${file} (--${flag}): ${(error as Error).message}`);
  }
  const source: ImportSource =
    flag === 'import-wsdl'
      ? {
          format: 'wsdl',
          document: text,
          ...(values['wsdl-service'] !== undefined ? { serviceName: values['wsdl-service'] } : {}),
          ...(values['wsdl-port'] !== undefined ? { portName: values['wsdl-port'] } : {}),
        }
      : { format: flag === 'import-swagger' ? 'swagger' : 'blueprint', document: text };
  const options: ImportOptions = {
    ...(values['upstream-target'] !== undefined ? { upstreamUrl: values['upstream-target'] } : {}),
    ...(values['as-version'] !== undefined ? { versionName: values['as-version'] } : {}),
    ...(values['as-mock'] ? { asMock: true } : {}),
  };

  let existing: unknown;
  const forApi = values['for-api'];
  if (forApi !== undefined) {
    try {
      existing = JSON.parse(io.readFile(forApi)) as unknown;
    } catch (error) {
      return fail(`cannot read the API definition ${forApi} (--for-api): ${(error as Error).message}`);
    }
  }
  let result;
  try {
    result =
      forApi !== undefined
        ? await importVersion(existing, source, options)
        : await importApi(source, { ...options, apiId: randomUUID().replaceAll('-', ''), ...(values['org-id'] ? { orgId: values['org-id'] } : {}) });
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    const about = error.parameter === 'existingApi' && forApi !== undefined ? forApi : file;
    return fail(`${about}: ${error.describe(CLI_FLAGS)}`);
  }
  if (forApi !== undefined && values['org-id'] !== undefined) result.warnings.unshift('--org-id is ignored with --for-api (the API keeps its org_id)');
  for (const warning of result.warnings) io.stderr(`gw gateway: warning: ${warning}\n`);
  io.stdout(`${JSON.stringify(result.definition, null, 2)}\n`);
  return 0;
}

function planImport(values: ImportFlagValues): { flag: (typeof SOURCES)[number]; file: string } {
  const given = SOURCES.filter((flag) => values[flag] !== undefined);
  if (given.length === 0) throw new UsageError(`the import flags need the document: --import-swagger=FILE, --import-blueprint=FILE or --import-wsdl=FILE`);
  if (given.length > 1) throw new UsageError(`import one document at a time: ${given.map((flag) => `--${flag}`).join(' and ')} were both given`);
  const flag = given[0]!;
  const file = values[flag]!;
  if (file === '') throw new UsageError(`--${flag} needs a file name`);
  if (flag !== 'import-wsdl' && (values['wsdl-service'] !== undefined || values['wsdl-port'] !== undefined)) {
    throw new UsageError('--wsdl-service and --wsdl-port apply to --import-wsdl only');
  }
  const create = values['create-api'] === true;
  const forApi = values['for-api'];
  if (create && forApi !== undefined)
    throw new UsageError('--create-api and --for-api exclude each other: create a new API, or add a version to an existing one');
  if (!create && forApi === undefined) {
    throw new UsageError('say what to do with the document: --create-api (a new API) or --for-api=FILE --as-version=NAME (a new version of the API in FILE)');
  }
  if (forApi !== undefined && !values['as-version']?.trim()) throw new UsageError('--for-api needs --as-version=NAME: the name of the version to add');
  return { flag, file };
}
