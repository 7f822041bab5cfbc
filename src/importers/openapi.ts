// OpenAPI documents (Swagger 2.0 and OpenAPI 3.0.x, JSON or YAML) -> ImportedApi. openapi-document.ts decodes
// the text and resolves the document's own `$ref`s (an external one is refused). The version is told by the document
// (`swagger: "2.0"` or `openapi: "3.x"`); what is read from both:
//   - name: info.title; version: the option, else info.version, else `Default`;
//   - endpoints: every path x method (get, put, post, delete, options, head, patch, trace), with the path as written
//     (`/pet/{petId}`: the gateway's `{name}` wildcards); a path item given by `$ref` is read from where it points.
// What differs:
//   - OpenAPI 2.0: the upstream must be given (gw's design: "OpenAPI 2.0 imports require an upstream URL"); host and
//     basePath are only quoted in the error as a hint. Listen path: basePath (`/v2/`), or `/<slug of title>/` when
//     basePath is empty or `/`.
//   - OpenAPI 3.0: the upstream is the option, else servers[0].url with its variables' defaults (a relative server
//     URL such as `/api/v3` is not an upstream). gw's design says a definition created from OAS 3.0 needs its listen
//     path added by hand; an API without one cannot be loaded, so the importer sets `/<slug of title>/` and says so
//     in a warning. OpenAPI 3.1 is read the same way, with a warning.
// Mocks are refused ("Swagger imports cannot create mocks"), as are Swagger 1.x documents. Security schemes,
// parameters and schemas are not imported.
import { z } from 'zod';
import { ImportError } from './errors.ts';
import { versionNameFor, type ImportedApi, type ImportedEndpoint } from './imported-api.ts';
import { isRecord, parseShape } from './json-document.ts';
import { decodeOpenApiText, resolveInternalRefs } from './openapi-document.ts';
import { listenPathFromBasePath, listenPathFromName } from './listen-path.ts';
import type { ImportOptions } from './options.ts';
import { checkedUpstreamOption, upstreamProblem } from './upstream.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const Info = z.object({
  title: z.string().trim().min(1, 'the API needs a title'),
  version: z.union([z.string(), z.number()]).optional(),
});
const Paths = z.record(z.string(), z.unknown());

const Swagger2 = z.object({
  swagger: z.literal('2.0'),
  info: Info,
  host: z.string().optional(),
  basePath: z.string().optional(),
  schemes: z.array(z.string()).optional(),
  paths: Paths,
});

const Server = z.object({
  url: z.string(),
  variables: z.record(z.string(), z.object({ default: z.union([z.string(), z.number()]) })).optional(),
});
const OpenApi3 = z.object({
  openapi: z.string().regex(/^3\.\d+(\.\d+)?/, 'expected 3.x'),
  info: Info,
  servers: z.array(Server).optional(),
  paths: Paths,
});

/** Reads an OpenAPI 2.0 or 3.x document (JSON or YAML text, or decoded value). */
export async function readOpenApi(document: unknown, options: ImportOptions): Promise<ImportedApi> {
  if (options.asMock) throw new ImportError('asMock', 'Swagger imports cannot create mocks: {param} applies to API Blueprint imports only');
  const doc = decodeOpenApiText(document);
  if (!isRecord(doc)) throw new ImportError('document', 'not an OpenAPI/Swagger document: expected a JSON object (or YAML mapping)');
  if (doc.swagger !== undefined || doc.swaggerVersion !== undefined) {
    if (doc.swagger === '2.0') return readSwagger2(await resolveInternalRefs(doc), options);
    throw new ImportError(
      'document',
      `Swagger ${String(doc.swagger ?? doc.swaggerVersion)} documents are not supported: convert the document to OpenAPI 2.0 or 3.0`,
    );
  }
  if (doc.openapi !== undefined) return readOpenApi3(await resolveInternalRefs(doc), options);
  throw new ImportError('document', 'not an OpenAPI/Swagger document: it has neither `swagger: "2.0"` nor `openapi: "3.0.x"`');
}

function readSwagger2(doc: Record<string, unknown>, options: ImportOptions): ImportedApi {
  const spec = parseShape(Swagger2, doc, 'OpenAPI 2.0');
  const warnings: string[] = [];
  const base = spec.basePath ?? '';
  const hint = spec.host
    ? `host ${spec.host}${base ? `, basePath ${base}` : ''}: for example ${spec.schemes?.[0] ?? 'https'}://${spec.host}${base === '/' ? '' : base}`
    : 'nor a host';
  let listenPath = listenPathFromBasePath(spec.basePath);
  if (!listenPath) {
    listenPath = listenPathFromName(spec.info.title);
    if (base && base !== '/') warnings.push(`basePath ${base} cannot be a listen path: the API listens on ${listenPath}`);
  }
  return {
    format: 'OpenAPI 2.0',
    name: spec.info.title,
    versionName: versionNameFor(options, spec.info.version),
    upstreamUrl: options.upstreamUrl === undefined ? undefined : checkedUpstreamOption(options.upstreamUrl),
    upstreamHint: `OpenAPI 2.0 documents do not give one (${hint})`,
    listenPath,
    endpoints: endpoints(spec.paths, warnings),
    warnings,
  };
}

function readOpenApi3(doc: Record<string, unknown>, options: ImportOptions): ImportedApi {
  const spec = parseShape(OpenApi3, doc, 'OpenAPI 3.0');
  const warnings: string[] = [];
  if (!spec.openapi.startsWith('3.0')) warnings.push(`OpenAPI ${spec.openapi} is read as OpenAPI 3.0 (paths, methods and servers)`);
  let upstreamUrl: string | undefined;
  let upstreamHint = 'the document has no servers';
  if (options.upstreamUrl !== undefined) {
    upstreamUrl = checkedUpstreamOption(options.upstreamUrl);
  } else if (spec.servers?.[0]) {
    const url = serverUrl(spec.servers[0]);
    const problem = upstreamProblem(url);
    if (problem) upstreamHint = `servers[0].url ${problem}: ${url}`;
    else upstreamUrl = url;
  }
  const listenPath = listenPathFromName(spec.info.title);
  warnings.push(`OpenAPI 3.0 documents carry no listen path: the API listens on ${listenPath} (change proxy.listen_path if needed)`);
  return {
    format: 'OpenAPI 3.0',
    name: spec.info.title,
    versionName: versionNameFor(options, spec.info.version),
    upstreamUrl,
    upstreamHint,
    listenPath,
    endpoints: endpoints(spec.paths, warnings),
    warnings,
  };
}

/** servers[n].url with `{variable}` replaced by the variable's default. */
function serverUrl(server: z.infer<typeof Server>): string {
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = server.variables?.[name];
    return variable === undefined ? whole : String(variable.default);
  });
}

function endpoints(paths: Record<string, unknown>, warnings: string[]): ImportedEndpoint[] {
  const found: ImportedEndpoint[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (path.startsWith('x-')) continue;
    if (!path.startsWith('/')) {
      warnings.push(`path ${path} does not start with '/': skipped`);
      continue;
    }
    if (!isRecord(item)) continue;
    const methods = METHODS.filter((method) => isRecord(item[method]));
    for (const method of methods) found.push({ path, method: method.toUpperCase() });
  }
  if (found.length === 0) warnings.push('the document describes no operations: the version has no endpoint list, so every path is forwarded');
  return found;
}
