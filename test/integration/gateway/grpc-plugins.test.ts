// gRPC plugins (custom_middleware with driver grpc, Tyk's coprocess protocol) through a real gateway, the Go test
// plugin server (test/support/grpc-plugin) and a real echo upstream: a pre hook's header, a post_key_auth hook
// reading the session, a post hook's query parameter reaching the upstream, a response hook's header reaching the
// client, the auth hook (CustomKeyCheck) admitting one token with the rate limit of the session it returns and
// refusing others with its override (and a token naming another organisation's key: refused, the key kept); the ID
// extractor (id_extractor) caching the auth hook's session under the identity it reads from a header, or from an XML
// body by XPath, until the deadline the plugin sets (the plugin is not called meanwhile, the session's rate limit
// still counts); then the plugin server stopped: 500 for the API using it, other APIs served.
// One gateway and one plugin server for every case.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startGrpcPlugin, type GrpcPluginServer } from '../../support/grpc-plugin.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('gRPC plugins', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let plugin: GrpcPluginServer;
  const last = (): Echo => upstream.requests.at(-1)!;

  /** An API of org-a authenticated by the CheckLogin hook, its sessions cached by this ID extractor. */
  const cachedLogin = (id: string, idExtractor: Record<string, unknown>) =>
    classicApi(id, `/${id}`, upstream.url, {
      org_id: 'org-a',
      enable_coprocess_auth: true,
      custom_middleware: { driver: 'grpc', auth_check: { name: 'CheckLogin' }, id_extractor: idExtractor },
    });

  beforeAll(async () => {
    upstream = await startUpstream();
    plugin = await startGrpcPlugin();
    const apis = {
      'grpc-hooks.json': classicApi('grpc-hooks', '/grpc-hooks', upstream.url, {
        use_keyless: true,
        custom_middleware: {
          driver: 'grpc',
          pre: [{ name: 'AddHeader' }],
          post: [{ name: 'AddParam' }],
          response: [{ name: 'SetResponseHeader' }],
        },
      }),
      'grpc-auth.json': classicApi('grpc-auth', '/grpc-auth', upstream.url, {
        enable_coprocess_auth: true,
        custom_middleware: { driver: 'grpc', auth_check: { name: 'CheckToken' }, post_key_auth: [{ name: 'TagSession' }] },
      }),
      'grpc-cached.json': cachedLogin('grpc-cached', { extract_from: 'header', extract_with: 'value', extractor_config: { header_name: 'X-User-Id' } }),
      'grpc-xml.json': cachedLogin('grpc-xml', { extract_from: 'body', extract_with: 'xpath', extractor_config: { xpath_expression: '//user/@id' } }),
      'plain.json': classicApi('plain', '/plain', upstream.url, { use_keyless: true }),
    };
    gw = await startGateway({ coprocess_options: { enable_coprocess: true, coprocess_grpc_server: plugin.address } }, { apps: apis });
  });

  it('applies the pre and post hooks to the request and the response hook to the answer', async () => {
    const answer = await gw.call('/grpc-hooks/echo?a=1');
    expect(answer.status).toBe(200);
    expect(last().headers['x-grpc-pre']).toBe('added');
    const query = new URLSearchParams(last().url.split('?')[1]);
    expect(query.get('a')).toBe('1');
    expect(query.get('grpc_post')).toBe('added');
    expect(answer.headers['x-grpc-response']).toBe('set');
    expect(answer.headers['content-type']).toBe('application/json');
  });

  it('passes the request body through a hook that echoes raw_body', async () => {
    await gw.call('/grpc-hooks/echo', { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
    expect(last().body).toBe('payload');
  });

  it('authenticates with the auth hook and enforces the rate limit of the session it returns', async () => {
    const refused = await gw.call('/grpc-auth/echo', { headers: { authorization: 'wrong' } });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe(errorBody('Refused by the plugin'));

    const first = await gw.call('/grpc-auth/echo', { headers: { authorization: 'secret-token' } });
    expect(first.status).toBe(200);
    expect(last().headers['x-grpc-alias']).toBe('grpc-user');
    expect((await gw.call('/grpc-auth/echo', { headers: { authorization: 'secret-token' } })).status).toBe(200);
    const limited = await gw.call('/grpc-auth/echo', { headers: { authorization: 'secret-token' } });
    expect(limited.status).toBe(429);
  });

  it("refuses a token naming another organisation's key, leaving that key as it was", async () => {
    const otherOrgs = { org_id: 'org-b', rate: 100, per: 1, quota_max: -1, access_rights: { plain: { api_id: 'plain', versions: [] } } };
    expect((await gw.admin('PUT', '/gw/keys/secret-token', otherOrgs)).status).toBe(200);
    const refused = await gw.call('/grpc-auth/echo', { headers: { authorization: 'secret-token' } });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe(errorBody('Forbidden'));
    const kept = (await gw.admin('GET', '/gw/keys/secret-token')).json<{ org_id: string; access_rights: Record<string, unknown> }>();
    expect(kept.org_id).toBe('org-b');
    expect(Object.keys(kept.access_rights)).toEqual(['plain']);
  });

  it("admits a header's identity from the ID extractor's cache until the plugin's deadline, without calling the plugin", async () => {
    const call = (headers: Record<string, string>) => gw.call('/grpc-cached/echo', { headers });
    const first = await call({ 'x-user-id': 'user-1', authorization: 'let-me-in' });
    expect(first.status).toBe(200);
    expect(last().headers['x-plugin-calls']).toMatch(/^\d+$/);
    // Cached under the identity: the plugin is not asked again, so its refusal of this credential never comes.
    expect((await call({ 'x-user-id': 'user-1', authorization: 'wrong' })).status).toBe(200);
    expect(last().headers['x-plugin-calls']).toBeUndefined();
    // Another identity is not cached: the plugin decides.
    const other = await call({ 'x-user-id': 'user-2', authorization: 'wrong' });
    expect(other.status).toBe(403);
    expect(other.text).toBe(errorBody('Refused by the plugin'));
    const missing = await call({ authorization: 'let-me-in' });
    expect(missing.status).toBe(400);
    expect(missing.text).toBe(errorBody('Authorization field missing'));
    // The cached session's rate limit (3 per 60 s) counts every request under the identity.
    expect((await call({ 'x-user-id': 'user-1' })).status).toBe(200);
    expect((await call({ 'x-user-id': 'user-1' })).status).toBe(429);
    // Tyk's key id: the org id and the MD5 of the identity.
    const keyId = `org-a${createHash('md5').update('user-1').digest('hex')}`;
    const key = (await gw.admin('GET', `/gw/keys/${keyId}`)).json<{ alias: string; org_id: string; id_extractor_deadline: number }>();
    expect([key.alias, key.org_id]).toEqual(['cached-user', 'org-a']);
    expect(key.id_extractor_deadline).toBeGreaterThan(Date.now() / 1000);
  });

  it('calls the plugin on every request once the deadline it set has passed', async () => {
    const headers = { 'x-user-id': 'user-3', authorization: 'let-me-in', 'x-expire-now': 'yes' };
    expect((await gw.call('/grpc-cached/echo', { headers })).status).toBe(200);
    const before = Number(last().headers['x-plugin-calls']);
    expect((await gw.call('/grpc-cached/echo', { headers })).status).toBe(200);
    expect(Number(last().headers['x-plugin-calls'])).toBe(before + 1);
  });

  it('extracts the identity from an XML body by XPath', async () => {
    const post = (body: string, authorization: string) =>
      gw.call('/grpc-xml/echo', { method: 'POST', body, headers: { authorization, 'content-type': 'application/xml' } });
    expect((await post('<login><user id="user-9"/></login>', 'let-me-in')).status).toBe(200);
    expect(last().body).toBe('<login><user id="user-9"/></login>');
    expect((await post('<login><user id="user-9">again</user></login>', 'wrong')).status).toBe(200);
    expect(last().headers['x-plugin-calls']).toBeUndefined();
    expect((await post('<login><user id="user-10"/></login>', 'wrong')).status).toBe(403);
    for (const body of ['<login><nobody/></login>', 'not xml', '']) expect((await post(body, 'let-me-in')).status).toBe(400);
  });

  it('answers 500 for the API using the plugin server once it is stopped, other APIs unaffected', async () => {
    await plugin.stop();
    const failed = await gw.call('/grpc-hooks/echo');
    expect(failed.status).toBe(500);
    expect(failed.text).toBe(errorBody('Middleware error'));
    expect((await gw.call('/plain/echo')).status).toBe(200);
  });
});
