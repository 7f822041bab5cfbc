// /gw/apis (Classic) and /gw/apis/oas (OAS 3.0.x + x-gw-api-gateway). Reads answer with what is stored (a write
// is visible at once); the routing table changes at the next reload. A write is fully validated — shape, then
// compilation, the same checks the loader applies — before the store is touched, so a refused write leaves
// nothing behind. POST creates or replaces (api_id generated when absent) and answers action `added`.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GW_EXTENSION, type OasDocument } from '../../domain/oas.ts';
import { compileTcpApi, isTcpDefinition } from '../tcp/tcp-api.ts';
import { checkApiId, compileApi, DefinitionError, hasGwExtension, MISSING_EXTENSION, parseClassic, parseOas } from '../definition/compile.ts';
import { oasToClassicView } from '../definition/from-oas.ts';
import type { StoredApi } from '../store/store.ts';
import type { AdminDeps } from './deps.ts';
import { HttpError, jsonBody, modified, param, route, sendJson } from './http.ts';

const CLASSIC_ONLY = 'this API endpoint only supports gw Classic APIs; please use the appropriate gw OAS API endpoint';
const IS_CLASSIC = 'the requested API definition is in gw classic format, please use old api endpoint';
const IS_OAS_TARGET = 'the supplied API definition is in OAS format, please use the gw classic format for this API';

export function registerApiRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const find = async (id: string): Promise<{ api: StoredApi; source: string } | undefined> => {
    const found = await deps.findApi(id);
    return found && { api: found.item, source: found.source };
  };
  const classicView = (api: StoredApi): unknown => (api.format === 'oas' ? oasToClassicView(api.definition as OasDocument, api.id) : api.definition);
  const validated = (api: StoredApi): StoredApi => {
    validation(() => {
      checkApiId(api.id, api.format === 'oas' ? `${GW_EXTENSION}.info.id` : 'api_id');
      if (isTcpDefinition(api)) compileTcpApi(api);
      else compileApi(api);
    });
    return api;
  };
  const classic = (body: unknown, id: string | undefined): StoredApi => {
    const def = validation(() => parseClassic(body));
    const apiId = id ?? def.api_id ?? randomUUID().replaceAll('-', '');
    return validated({ id: apiId, format: 'classic', definition: { ...def, api_id: apiId } });
  };
  const oas = (body: unknown, id: string | undefined): StoredApi => {
    if (!hasGwExtension(body)) throw new HttpError('invalid', MISSING_EXTENSION);
    const doc = validation(() => parseOas(body)) as OasDocument;
    const ext = doc[GW_EXTENSION];
    const apiId = id ?? ext.info.id ?? randomUUID().replaceAll('-', '');
    return validated({ id: apiId, format: 'oas', definition: { ...doc, [GW_EXTENSION]: { ...ext, info: { ...ext.info, id: apiId } } } });
  };
  /** Stores a validated API; an id already taken by the other format is refused (it has its own endpoint). */
  const save = async (reply: FastifyReply, api: StoredApi, updating: boolean, conflict: string): Promise<FastifyReply> => {
    const existing = await find(api.id);
    if (updating && !existing) throw new HttpError('not_found', 'API not found');
    if (existing && existing.api.format !== api.format) throw new HttpError('invalid', conflict);
    await deps.store.putApi(api);
    return modified(reply, api.id, updating ? 'modified' : 'added');
  };
  const remove = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const id = param(request, 'id');
    const found = await find(id);
    if (!found) throw new HttpError('not_found', 'API not found');
    if (found.source !== 'store') throw new HttpError('invalid', `API ${id} is defined in ${found.source}; remove the file instead`);
    await deps.store.deleteApi(id);
    return modified(reply, id, 'deleted');
  };

  route(app, '/gw/apis', {
    GET: async (_request, reply) =>
      sendJson(
        reply,
        200,
        [...(await deps.definitions()).apis.values()].map(({ item }) => classicView(item)),
      ),
    POST: async (request, reply) => save(reply, classic(jsonBody(request), undefined), false, CLASSIC_ONLY),
  });

  route(app, '/gw/apis/:id', {
    GET: async (request, reply) => {
      const found = await find(param(request, 'id'));
      if (!found) throw new HttpError('not_found', 'API not found');
      return sendJson(reply, 200, classicView(found.api));
    },
    PUT: async (request, reply) => {
      const id = param(request, 'id');
      const body = jsonBody(request) as { api_id?: unknown };
      if (typeof body === 'object' && body !== null && body.api_id !== undefined && body.api_id !== id) {
        throw new HttpError('invalid', 'Request APIID does not match that in Definition! For Update operations these must match.');
      }
      return save(reply, classic(body, id), true, CLASSIC_ONLY);
    },
    DELETE: remove,
  });

  route(app, '/gw/apis/oas', {
    GET: async (_request, reply) =>
      sendJson(
        reply,
        200,
        [...(await deps.definitions()).apis.values()].filter(({ item }) => item.format === 'oas').map(({ item }) => item.definition),
      ),
    POST: async (request, reply) => save(reply, oas(jsonBody(request), undefined), false, IS_OAS_TARGET),
  });

  route(app, '/gw/apis/oas/:id', {
    GET: async (request, reply) => {
      const found = await find(param(request, 'id'));
      if (!found) throw new HttpError('not_found', 'API not found');
      if (found.api.format === 'classic') throw new HttpError('invalid', IS_CLASSIC);
      return sendJson(reply, 200, found.api.definition);
    },
    PUT: async (request, reply) => save(reply, oas(jsonBody(request), param(request, 'id')), true, IS_OAS_TARGET),
    DELETE: remove,
  });
}

/** Runs a parse or compile step; a refusal becomes Tyk's 400 `Validation of API Definition failed`. */
function validation<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof DefinitionError) throw new HttpError('invalid', `Validation of API Definition failed. Reason: ${error.message}.`);
    throw error;
  }
}
