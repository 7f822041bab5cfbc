// Request and response header transforms through a real gateway and a real echo upstream: the exact headers the
// upstream receives and the client gets, Classic and OAS, with context variables and session metadata in both the
// gateway's spelling ($gw_context / $gw_meta) and Tyk\'s ($tyk_context / $tyk_meta); other endpoints and
// methods untouched; mocks and errors keep their own heads; a header name HTTP cannot carry refuses the API.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

describe('header transforms', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  const last = (): Echo => upstream.requests.at(-1)!;

  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-upstream-secret': 's3', 'x-kept': 'k' });
      res.end('ok');
      return true;
    });
    gw = await startGateway();
    const classic = classicApi('hdr-classic', '/hdr', upstream.url, {
      extended_paths: {
        transform_headers: [
          {
            path: '/users/{id}',
            method: 'GET',
            delete_headers: ['X-Drop-Me'],
            add_headers: { 'X-Tier': '$tyk_meta.tier', 'X-Who': 'user $gw_context.path_parts / $tyk_context.request_data_q', 'X-Plain': 'fixed' },
          },
        ],
        transform_response_headers: [
          { path: '/users/{id}', method: 'GET', delete_headers: ['x-upstream-secret'], add_headers: { 'X-Served-For': '$gw_context.headers_X_Client' } },
        ],
        ignored: [{ path: '/mock', method_actions: { GET: { action: 'reply', code: 200, data: 'mocked', headers: { 'x-upstream-secret': 'mock' } } } }],
      },
    });
    expect((await gw.admin('POST', '/gw/apis', classic)).status).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas', version: '1' },
      paths: { '/items': { post: { operationId: 'createItem', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'hdr-oas', name: 'hdr oas', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/hdr-oas', strip: true } },
        middleware: {
          operations: {
            createItem: {
              transformRequestHeaders: { enabled: true, add: [{ name: 'X-Path', value: '$gw_context.path' }], remove: ['x-drop-me'] },
              transformResponseHeaders: { enabled: true, add: [{ name: 'X-Added', value: 'yes' }], remove: ['X-Kept'] },
            },
          },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['hdr-classic'], { meta_data: { tier: 'gold' } });
  });

  it('Classic: the upstream gets the header removed and the added ones with variables substituted; the client gets the response edits', async () => {
    const result = await gw.call('/hdr/users/7?q=a&q=b', { headers: { authorization: key, 'x-drop-me': '1', 'x-client': 'c-9' } });
    expect(result.status).toBe(200);
    expect(last().headers['x-drop-me']).toBeUndefined();
    expect(last().headers['x-tier']).toBe('gold');
    expect(last().headers['x-who']).toBe('user ,hdr,users,7 / a');
    expect(last().headers['x-plain']).toBe('fixed');
    expect(result.headers['x-upstream-secret']).toBeUndefined();
    expect(result.headers['x-kept']).toBe('k');
    expect(result.headers['x-served-for']).toBe('c-9');
  });

  it('Classic: another method on the same path, and a mock, are left as they are', async () => {
    const post = await gw.call('/hdr/users/7', { method: 'POST', headers: { authorization: key, 'x-drop-me': '1' }, body: 'b' });
    expect(post.status).toBe(200);
    expect(last().headers['x-drop-me']).toBe('1');
    expect(last().headers['x-tier']).toBeUndefined();
    expect(post.headers['x-upstream-secret']).toBe('s3');
    const mock = await gw.call('/hdr/mock', { headers: { authorization: key } });
    expect(mock.text).toBe('mocked');
    expect(mock.headers['x-upstream-secret']).toBe('mock');
    expect(mock.headers['x-served-for']).toBeUndefined();
  });

  it('OAS: transformRequestHeaders and transformResponseHeaders on the operation only', async () => {
    const result = await gw.call('/hdr-oas/items', { method: 'POST', headers: { 'x-drop-me': '1' }, body: '{}' });
    expect(result.status).toBe(200);
    expect(last().headers['x-drop-me']).toBeUndefined();
    expect(last().headers['x-path']).toBe('/hdr-oas/items');
    expect(result.headers['x-added']).toBe('yes');
    expect(result.headers['x-kept']).toBeUndefined();
    const other = await gw.call('/hdr-oas/items', { method: 'GET', headers: { 'x-drop-me': '1' } });
    expect(other.headers['x-kept']).toBe('k');
    expect(last().headers['x-drop-me']).toBe('1');
  });

  it('a header name HTTP cannot carry refuses the API, naming the field', async () => {
    const bad = classicApi('hdr-bad', '/hdr-bad', upstream.url, {
      extended_paths: { transform_headers: [{ path: '/a', method: 'GET', add_headers: { 'bad name': 'x' } }] },
    });
    const created = await gw.admin('POST', '/gw/apis', bad);
    expect(created.status).toBe(400);
    expect(created.json<{ message: string }>().message).toContain('extended_paths.transform_headers[0].add_headers.bad name is not a valid header name');
  });
});
