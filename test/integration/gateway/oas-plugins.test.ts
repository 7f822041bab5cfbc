// Tyk OAS plugin fields through a real gateway, a real echo upstream and the Go gRPC plugin server
// (test/support/grpc-plugin): JavaScript prePlugins (a file, with pluginConfig.data) and postPlugins setting headers
// the upstream receives, a responsePlugins entry editing the answer, an operation's virtualEndpoint answering its
// path and method itself, server.authentication.custom authenticating with a plugin, and with pluginConfig.driver grpc the same hook lists calling the plugin server. One
// gateway and one plugin server for every case.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startGrpcPlugin } from '../../support/grpc-plugin.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const middleware = (name: string, body: string) =>
  `var ${name} = new TykJS.TykMiddleware.NewMiddleware({});\n${name}.NewProcessRequest(function (request, session, config) {\n${body}\nreturn ${name}.ReturnData(request, {});\n});`;

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Admits `Bearer <user>`, naming the user to the upstream; refuses a request without it as Tyk's sample does. */
const AUTH_PLUGIN = `var customAuth = new TykJS.TykMiddleware.NewMiddleware({});
customAuth.NewProcessRequest(function (request, session, config) {
  var header = (request.Headers['Authorization'] || [])[0];
  if (header === undefined) {
    request.ReturnOverrides.ResponseCode = 401;
    request.ReturnOverrides.ResponseError = 'Header missing (JS middleware)';
    return customAuth.ReturnAuthData(request, {});
  }
  request.SetHeaders['X-Auth-User'] = header.replace(/^Bearer /, '');
  var admitted = customAuth.ReturnAuthData(request, { rate: 100, per: 1, quota_max: -1 });
  admitted.AuthValue = header;
  return admitted;
});`;

/** An OAS API (keyless unless `server` says otherwise) whose extension has these middleware sections. */
function oasApi(
  id: string,
  upstreamUrl: string,
  paths: Record<string, unknown>,
  middleware: Record<string, unknown>,
  server: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: id, version: '1' },
    paths,
    'x-gw-api-gateway': {
      info: { id, name: id, state: { active: true } },
      upstream: { url: upstreamUrl },
      server: { listenPath: { value: `/${id}`, strip: true }, ...server },
      middleware,
    },
  };
}

describe('Tyk OAS plugin fields', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  const last = (): Echo => upstream.requests.at(-1)!;

  beforeAll(async () => {
    const [started, plugin] = await Promise.all([startUpstream(), startGrpcPlugin()]);
    upstream = started;
    gw = await startGateway({ enable_jsvm: true, coprocess_options: { enable_coprocess: true, coprocess_grpc_server: plugin.address } });
    const dir = mkdtempSync(join(tmpdir(), 'gw-oas-plugins-'));
    writeFileSync(join(dir, 'pre.js'), middleware('greet', "request.SetHeaders['X-From-Pre'] = config.config_data.greeting;"));
    writeFileSync(join(dir, 'post.js'), middleware('stamp', "request.SetHeaders['X-From-Post'] = 'post';"));
    writeFileSync(
      join(dir, 'response.js'),
      `var shout = new TykJS.TykMiddleware.NewMiddleware({});
shout.NewProcessResponse(function (response, request, session, config) {
  response.SetHeaders['X-Response-Plugin'] = 'yes';
  response.StatusCode = 202;
  return shout.ReturnResponseData(response, {});
});`,
    );
    const js = oasApi(
      'oas-js',
      upstream.url,
      { '/items/{id}': { get: { operationId: 'getItem', responses: {} } } },
      {
        global: {
          pluginConfig: { driver: 'otto', data: { enabled: true, value: { greeting: 'hello' } } },
          prePlugins: [
            { enabled: true, functionName: 'greet', path: join(dir, 'pre.js') },
            { enabled: false, functionName: 'absent', path: join(dir, 'absent.js') },
          ],
          postPlugins: [{ enabled: true, functionName: 'stamp', path: join(dir, 'post.js') }],
          responsePlugins: [{ enabled: true, functionName: 'shout', path: join(dir, 'response.js') }],
        },
        operations: {
          getItem: {
            virtualEndpoint: {
              enabled: true,
              functionName: 'item',
              body: b64(
                "function item(request) { return TykJsResponse({ Body: 'item for ' + request.Params.name[0], Code: 201, Headers: { 'X-Virtual': 'yes' } }, {}); }",
              ),
            },
          },
        },
      },
    );
    const grpc = oasApi(
      'oas-grpc',
      upstream.url,
      {},
      {
        global: {
          pluginConfig: { driver: 'grpc' },
          prePlugins: [{ enabled: true, functionName: 'AddHeader' }],
          responsePlugins: [{ enabled: true, functionName: 'SetResponseHeader' }],
        },
      },
    );
    writeFileSync(join(dir, 'auth.js'), AUTH_PLUGIN);
    const auth = oasApi(
      'oas-auth',
      upstream.url,
      {},
      { global: { pluginConfig: { driver: 'otto' } } },
      { authentication: { enabled: true, custom: { enabled: true, config: { enabled: true, functionName: 'customAuth', path: join(dir, 'auth.js') } } } },
    );
    for (const api of [js, grpc, auth]) {
      const created = await gw.admin('POST', '/gw/apis/oas', api);
      expect(created.status, created.text).toBe(200);
    }
    await gw.reload();
  });

  it('runs the pre plugin (with the config data) and the post plugin on the request, the response plugin on the answer', async () => {
    const answer = await gw.call('/oas-js/anything');
    expect(answer.status).toBe(202);
    expect(answer.headers['x-response-plugin']).toBe('yes');
    expect(last().url).toBe('/anything');
    expect(last().headers['x-from-pre']).toBe('hello');
    expect(last().headers['x-from-post']).toBe('post');
  });

  it("answers the operation's path and method from its virtual endpoint, never calling the upstream", async () => {
    const before = upstream.requests.length;
    const answer = await gw.call('/oas-js/items/7?name=ada');
    expect(answer.headers['x-virtual']).toBe('yes');
    expect(answer.text).toBe('item for ada');
    expect(upstream.requests.length).toBe(before);
    // Another method on the same path is the upstream's.
    await gw.call('/oas-js/items/7', { method: 'POST', body: '{}' });
    expect(upstream.requests.length).toBe(before + 1);
    expect(last().method).toBe('POST');
  });

  it('authenticates with the server.authentication.custom plugin: its refusal answered, its admission proxied', async () => {
    const before = upstream.requests.length;
    const refused = await gw.call('/oas-auth/x');
    expect(refused.status).toBe(401);
    expect(refused.text).toBe(errorBody('Header missing (JS middleware)'));
    expect(upstream.requests.length).toBe(before);
    const admitted = await gw.call('/oas-auth/x', { headers: { authorization: 'Bearer ada' } });
    expect(admitted.status).toBe(200);
    expect(last().headers['x-auth-user']).toBe('ada');
  });

  it('calls the gRPC plugin server for the hooks of pluginConfig.driver grpc', async () => {
    const answer = await gw.call('/oas-grpc/echo');
    expect(answer.status).toBe(200);
    expect(last().headers['x-grpc-pre']).toBe('added');
    expect(answer.headers['x-grpc-response']).toBe('set');
  });
});
