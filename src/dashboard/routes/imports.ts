// /api/import/{swagger,blueprint,wsdl}/: an API from a document, converted by src/importers (permission `apis`;
// operator_managed as for other API writes). Answer: {Status: "OK", Message: "API Imported", Meta: <api id>}.
//   swagger    {swagger, insert_into_api, api_id, version_name, upstream_url}
//   blueprint  {blueprint, insert_into_api, api_id, as_mock, version_name, upstream_url}
//   wsdl       {wsdl, service_name, port_name, upstream_url, insert_into_api, api_id, version_name}
// The document is a string (JSON text, or WSDL XML); the JSON formats also take the decoded object. With
// insert_into_api false (default) a new API is created from the document (then written like any POST /api/apis:
// org forced, id generated, listen path clash refused); with true the organisation's API `api_id` is replaced by
// itself plus the document as a new version (importVersion). The importers' warnings (defaults chosen, parts not
// imported) travel in `Warning` headers, one each, so the body keeps gw's documented shape. A refused import is 400
// naming the field (ImportError.describe with the dashboard's field names). Bounded work: a document over
// import_max_document_bytes or describing more than import_max_operations operations is 413 naming the setting;
// the conversion runs on the import worker thread (importers/import-runner.ts), never on the event loop that
// answers everyone else; more than a few imports waiting is 503.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { DASHBOARD_FIELDS, ImportError } from '../../importers/errors.ts';
import type { ImportSource } from '../../importers/import.ts';
import { ImportBusyError, ImportWorker } from '../../importers/import-runner.ts';
import type { ImportOptions, ImportResult } from '../../importers/options.ts';
import { orgRoute, type Caller } from '../access.ts';
import { createApi, replaceApi, WRONG_FORMAT } from '../api-writes.ts';
import { classicApi } from '../definitions.ts';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, objectBody, parseWith, sendOk } from '../http.ts';
import { getApi } from '../store/apis.ts';
import { API_DEFINITIONS } from './apis.ts';

const Common = {
  insert_into_api: z.boolean().default(false),
  api_id: z.string().default(''),
  version_name: z.string().optional(),
  upstream_url: z.string().optional(),
};
const Document = z.union([z.string().min(1), z.record(z.string(), z.unknown())], { error: 'must be the document (a string)' });

const SwaggerImport = z.object({ swagger: Document, ...Common });
const BlueprintImport = z.object({ blueprint: Document, as_mock: z.boolean().default(false), ...Common });
const WsdlImport = z.object({
  wsdl: z.string({ error: 'must be the WSDL document (XML text)' }).min(1),
  service_name: z.string().optional(),
  port_name: z.string().optional(),
  ...Common,
});

type Common = { insert_into_api: boolean; api_id: string; version_name?: string | undefined; upstream_url?: string | undefined };

const MAX_WARNING_HEADERS = 20;

export function registerImportRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const managed = { operatorManaged: API_DEFINITIONS };
  const worker = new ImportWorker();
  app.addHook('onClose', () => worker.close());

  const run = async (reply: FastifyReply, caller: Caller, body: Common, source: ImportSource, asMock = false): Promise<FastifyReply> => {
    // Fastify has checked the body against its Content-Length; a chunked body (none declared) is counted instead.
    const declared = reply.request.headers['content-length'];
    checkDocumentSize(source.document, declared === undefined ? Infinity : Number(declared), deps.config.import_max_document_bytes);
    const options: ImportOptions = {
      orgId: caller.org.id,
      maxOperations: deps.config.import_max_operations,
      ...(body.upstream_url ? { upstreamUrl: body.upstream_url } : {}),
      ...(body.version_name ? { versionName: body.version_name } : {}),
      ...(asMock ? { asMock } : {}),
    };
    let id: string;
    let result: ImportResult;
    if (body.insert_into_api) {
      if (body.api_id === '') throw new HttpError('invalid', 'api_id: is required when insert_into_api is true');
      const existing = await getApi(deps.db, caller.org.id, body.api_id);
      if (!existing) throw notFound('API');
      if (existing.format !== 'classic')
        throw new HttpError('invalid', `api_id: ${WRONG_FORMAT.oas(existing.id)}; documents can only be inserted into Classic APIs`);
      result = await converted(() => worker.importVersion(existing.definition, source, options));
      const api = classicApi({ definition: result.definition, prefix: '', user_owners: undefined, user_group_owners: undefined }, caller.org.id, existing.id);
      await replaceApi(deps, api);
      id = api.id;
    } else {
      result = await converted(() => worker.importApi(source, options));
      const api = classicApi({ definition: result.definition, prefix: '', user_owners: undefined, user_group_owners: undefined }, caller.org.id, undefined);
      await createApi(deps, api);
      id = api.id;
    }
    const warnings = result.warnings.slice(0, MAX_WARNING_HEADERS).map(
      (w) =>
        `199 gw "${w
          .replace(/[^\x20-\x7e]/g, '?')
          .replace(/["\\]/g, "'")
          .slice(0, 300)}"`,
    );
    if (warnings.length > 0) reply.header('Warning', warnings);
    deps.log.info({ api: id, org: caller.org.id, format: source.format, inserted: body.insert_into_api, warnings: result.warnings.length }, 'API imported');
    return sendOk(reply, 'API Imported', id);
  };

  orgRoute(
    app,
    '/api/import/swagger',
    'apis',
    {
      POST: async (request, reply, caller) => {
        const body = parseWith(SwaggerImport, objectBody(request, 'the import'));
        return run(reply, caller, body, { format: 'swagger', document: body.swagger });
      },
    },
    managed,
  );
  orgRoute(
    app,
    '/api/import/blueprint',
    'apis',
    {
      POST: async (request, reply, caller) => {
        const body = parseWith(BlueprintImport, objectBody(request, 'the import'));
        return run(reply, caller, body, { format: 'blueprint', document: body.blueprint }, body.as_mock);
      },
    },
    managed,
  );
  orgRoute(
    app,
    '/api/import/wsdl',
    'apis',
    {
      POST: async (request, reply, caller) => {
        const body = parseWith(WsdlImport, objectBody(request, 'the import'));
        const source: ImportSource = {
          format: 'wsdl',
          document: body.wsdl,
          ...(body.service_name ? { serviceName: body.service_name } : {}),
          ...(body.port_name ? { portName: body.port_name } : {}),
        };
        return run(reply, caller, body, source);
      },
    },
    managed,
  );
}

/** Runs a converter; its refusal becomes 400 naming the dashboard field (413 for the operations limit). */
async function converted(step: () => Promise<ImportResult>): Promise<ImportResult> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ImportBusyError) throw new HttpError('unavailable', `Too many imports in progress (${error.message}): retry later`);
    if (!(error instanceof ImportError)) throw error;
    if (error.parameter === 'maxOperations') throw new HttpError('too_large', `Document too large: ${error.describe(DASHBOARD_FIELDS)}`);
    throw new HttpError(
      'invalid',
      error.parameter === 'document' ? `Request malformed: ${error.describe(DASHBOARD_FIELDS)}` : error.describe(DASHBOARD_FIELDS),
    );
  }
}

/**
 * 413 naming import_max_document_bytes when the document (its text, or its JSON when given decoded) is larger. The
 * request body holds the document, so a body within the limit needs no counting (and a decoded document is never
 * re-serialised on the event loop for it).
 */
function checkDocumentSize(document: unknown, requestBytes: number, limit: number): void {
  if (requestBytes <= limit) return;
  const bytes = Buffer.byteLength(typeof document === 'string' ? document : JSON.stringify(document));
  if (bytes > limit) throw new HttpError('too_large', `Document too large: ${bytes} bytes; at most ${limit} are accepted: import_max_document_bytes`);
}
