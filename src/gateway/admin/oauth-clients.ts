// /gw/oauth/clients: the OAuth clients of use_oauth2 APIs, in the shapes of Tyk Gateway's /tyk/oauth/clients
// ({client_id, secret, redirect_uri, api_id, policy_id, meta_data, description}), with its messages:
//   POST   /gw/oauth/clients/create                     client_id defaults to a UUID hex, secret is generated
//                                                      unless given; 400 `API doesn't exist`, `API is not OAuth2`,
//                                                      `Policy doesn't exist`, `Policy access rights doesn't contain
//                                                      API this OAuth client belongs to`
//   GET    /gw/oauth/clients/{apiId}                    the API's clients (400 `OAuth is not enabled on this API`)
//   GET|PUT|DELETE /gw/oauth/clients/{apiId}/{clientId} 404 `OAuth Client ID not found`; a deleted client's
//                                                      tokens are refused from then on (middleware/auth/oauth-bearer.ts)
//   PUT    /gw/oauth/clients/{apiId}/{clientId}/rotate  a new secret
//   DELETE /gw/oauth/tokens?scope=lapsed                 deletes expired access tokens, codes and refresh tokens
//                                                      (the store keeps them until then: Tyk's Redis TTLs them)
// The secret is answered back, as Tyk does (the management API is behind the gateway secret); never logged.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FreeForm } from '../../domain/json.ts';
import { compileApi } from '../definition/compile.ts';
import { OAuthRecords, type OAuthClient } from '../oauth/records.ts';
import type { StoredApi } from '../store/store.ts';
import { applyPolicies } from '../session/apply-policies.ts';
import type { AdminDeps } from './deps.ts';
import { queryValue } from '../../http/routes.ts';
import { HttpError, param, parseBody, route, sendJson } from './http.ts';

const ClientBody = z.object({
  client_id: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{1,128}$/, 'client_id: 1-128 characters of A-Z a-z 0-9 . _ ~ -')
    .optional(),
  secret: z.string().min(1).max(512).optional(),
  redirect_uri: z.string().max(2048).default(''),
  api_id: z.string().optional(),
  policy_id: z.string().default(''),
  meta_data: FreeForm.optional(),
  description: z.string().max(1024).default(''),
});

export function registerOAuthClientRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const records = new OAuthRecords(deps.store);

  /** The API as stored (served at the next reload, so a client can be created right after its API). */
  const oauthApi = async (apiId: string, missing: string): Promise<void> => {
    const api = (await deps.findApi(apiId))?.item;
    if (!api) throw new HttpError('invalid', missing);
    if (!usesOAuth(api)) throw new HttpError('invalid', missing === "API doesn't exist" ? 'API is not OAuth2' : 'OAuth is not enabled on this API');
  };

  /** The client's policy must exist and grant its API. */
  const checkPolicy = async (client: OAuthClient): Promise<void> => {
    if (!client.policy_id) return;
    const policy = (await deps.findPolicy(client.policy_id))?.item;
    if (!policy) throw new HttpError('invalid', "Policy doesn't exist");
    const applied = applyPolicies({ apply_policies: [client.policy_id] }, (id) => (id === client.policy_id ? policy : undefined));
    if (!applied.ok || !applied.effective.access.has(client.api_id))
      throw new HttpError('invalid', "Policy access rights doesn't contain API this OAuth client belongs to");
  };

  const existing = async (apiId: string, clientId: string): Promise<OAuthClient> => {
    await oauthApi(apiId, 'OAuth is not enabled on this API');
    const client = await records.getClient(apiId, clientId);
    if (!client) throw new HttpError('not_found', 'OAuth Client ID not found');
    return client;
  };

  route(app, '/gw/oauth/clients/create', {
    POST: async (request, reply) => {
      const body = parseBody(request, ClientBody, 'the OAuth client');
      const apiId = body.api_id ?? '';
      await oauthApi(apiId, "API doesn't exist");
      const client: OAuthClient = {
        client_id: body.client_id ?? randomUUID().replaceAll('-', ''),
        secret: body.secret ?? randomBytes(24).toString('base64url'),
        redirect_uri: body.redirect_uri,
        api_id: apiId,
        policy_id: body.policy_id,
        meta_data: body.meta_data ?? {},
        description: body.description,
      };
      if (await records.getClient(apiId, client.client_id)) throw new HttpError('conflict', 'OAuth client already exists');
      await checkPolicy(client);
      await records.putClient(client);
      return sendJson(reply, 200, client);
    },
  });

  route(app, '/gw/oauth/clients/:apiId', {
    GET: async (request, reply) => {
      const apiId = param(request, 'apiId');
      await oauthApi(apiId, 'OAuth is not enabled on this API');
      return sendJson(reply, 200, await records.listClients(apiId));
    },
  });

  route(app, '/gw/oauth/clients/:apiId/:clientId', {
    GET: async (request, reply) => sendJson(reply, 200, await existing(param(request, 'apiId'), param(request, 'clientId'))),
    PUT: async (request, reply) => {
      const current = await existing(param(request, 'apiId'), param(request, 'clientId'));
      const body = parseBody(request, ClientBody, 'the OAuth client');
      const client: OAuthClient = {
        ...current,
        redirect_uri: body.redirect_uri || current.redirect_uri,
        policy_id: body.policy_id || current.policy_id,
        meta_data: body.meta_data ?? current.meta_data,
        description: body.description || current.description,
        ...(body.secret ? { secret: body.secret } : {}),
      };
      await checkPolicy(client);
      await records.putClient(client);
      return sendJson(reply, 200, client);
    },
    DELETE: async (request, reply) => {
      const current = await existing(param(request, 'apiId'), param(request, 'clientId'));
      await records.deleteClient(current.api_id, current.client_id);
      return sendJson(reply, 200, { key: current.client_id, status: 'ok', action: 'deleted' });
    },
  });

  route(app, '/gw/oauth/tokens', {
    DELETE: async (request, reply) => {
      const scope = queryValue(request, 'scope');
      if (!scope) throw new HttpError('invalid', 'scope parameter is required');
      if (scope !== 'lapsed') throw new HttpError('invalid', 'unknown scope');
      const purged = await records.purgeLapsed(deps.now(), (id) => deps.sessions.invalidate(id));
      deps.log.info({ purged }, 'lapsed OAuth tokens purged');
      return sendJson(reply, 200, { status: 'ok', message: 'lapsed tokens purged', purged });
    },
  });

  route(app, '/gw/oauth/clients/:apiId/:clientId/rotate', {
    PUT: async (request, reply) => {
      const current = await existing(param(request, 'apiId'), param(request, 'clientId'));
      const client = { ...current, secret: randomBytes(24).toString('base64url') };
      await records.putClient(client);
      return sendJson(reply, 200, client);
    },
  });
}

/** Classic `use_oauth2`, or an OAS `oauth2` scheme enabled; an API that does not compile is not one. */
function usesOAuth(api: StoredApi): boolean {
  try {
    return compileApi(api).oauth !== undefined;
  } catch {
    return false;
  }
}
