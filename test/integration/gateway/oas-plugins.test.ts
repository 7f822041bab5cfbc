// Tyk OAS plugin fields through a real gateway, a real echo upstream and the Go gRPC plugin server
// (test/support/grpc-plugin): JavaScript prePlugins (a file, with pluginConfig.data) and postPlugins setting headers
// the upstream receives, a responsePlugins entry editing the answer, an operation's virtualEndpoint answering its
// path and method itself, and with pluginConfig.driver grpc the same hook lists calling the plugin server. One
// gateway and one plugin server for every case.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startGrpcPlugin } from '../../support/grpc-plugin.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const middleware = (name: string, body: string) =>
  `var ${name} = new TykJS.TykMiddleware.NewMiddleware({});\n${name}.NewProcessRequest(function (request, session, config) {\n${body}\nreturn ${name}.ReturnData(request, {});\n});`;

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** An OAS API (keyless) whose extension has these middleware sections. */
function oasApi(id: string, upstreamUrl: string, paths: Record<string, unknown>, middleware: Record<string, unknown>): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: id, version: '1' },
    paths,
    'x-gw-api-gateway': {
      info: { id, name: id, state: { active: true } },
      upstream: { url: upstreamUrl },
      server: { listenPath: { value: `/${id}`, strip: true } },
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
    for (const api of [js, grpc]) {
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

  it('calls the gRPC plugin server for the hooks of pluginConfig.driver grpc', async () => {
    const answer = await gw.call('/oas-grpc/echo');
    expect(answer.status).toBe(200);
    expect(last().headers['x-grpc-pre']).toBe('added');
    expect(answer.headers['x-grpc-response']).toBe('set');
  });
});
