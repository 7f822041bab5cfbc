// Response body transforms through a real gateway, the real template engine and a real upstream: the exact bytes and
// Content-Length the client gets, Classic (transform_response + response_processors) and OAS (transformResponseBody),
// JSON and XML, with session metadata and context variables; other endpoints stream untouched; the upstream is asked
// for an unencoded body and an encoded one passes through untransformed; a body past transform_max_body_bytes answers
// 502; a failing template 500 `Body transform failure`, logged without the body; a definition without the
// response processor is refused.
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { builtTemplateEngine } from '../../support/template-engine.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const GZIPPED = gzipSync('{"user":"zip"}');

describe('response body transforms', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  const last = (): Echo => upstream.requests.at(-1)!;

  beforeAll(async () => {
    process.env.GW_TEMPLATE_ENGINE = builtTemplateEngine();
    upstream = await startUpstream((req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      const answer = (body: string | Buffer, headers: Record<string, string> = {}): true => {
        // chunked (no Content-Length): the gateway must frame the transformed body itself
        res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'u', ...headers });
        res.write(body.slice(0, 5));
        res.end(body.slice(5));
        return true;
      };
      if (path === '/users/7') return answer('{"name":"Ada <A&B>","n":123456789}');
      if (path === '/names') return answer('<names lang="tr"><name>Furkan</name><name>Bàr</name></names>', { 'content-type': 'application/xml' });
      if (path === '/zipped') return answer(GZIPPED, { 'content-encoding': 'gzip' });
      if (path === '/big') return answer(JSON.stringify({ name: 'x'.repeat(300) }));
      if (path === '/fails') return answer('{"a":"secret-response-value"}');
      if (path === '/items') return answer('{"items":[{"id":1},{"id":2}]}');
      return false;
    });
    gw = await startGateway({ transform_max_body_bytes: 256, transform_timeout_ms: 1000 });
    const tr = (path: string, method: string, template: string, input_type = 'json', enable_session = false) => ({
      path,
      method,
      template_data: { input_type, enable_session, template_mode: 'blob', template_source: b64(template) },
    });
    const classic = classicApi('rb-classic', '/rb', upstream.url, {
      enable_context_vars: true,
      response_processors: [{ name: 'response_body_transform' }],
      extended_paths: {
        transform_response: [
          tr(
            '/users/{id}',
            'GET',
            '{"user":{{.name | jsonMarshal}},"tier":{{._gw_meta.tier | jsonMarshal}},"q":{{._gw_context.request_data_q | jsonMarshal}},"n":{{.n}}}',
            'json',
            true,
          ),
          tr('/names', 'GET', '[{{range $i, $n := .names.name}}{{if $i}},{{end}}{{$n | jsonMarshal}}{{end}}]', 'xml'),
          tr('/zipped', 'GET', 'never'),
          tr('/big', 'GET', '{{.name}}'),
          tr('/fails', 'GET', '{{.a.b.c}}'),
        ],
      },
    });
    expect((await gw.admin('POST', '/gw/apis', classic)).status).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas', version: '1' },
      paths: { '/items': { get: { operationId: 'listItems', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'rb-oas', name: 'rb oas', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/rb-oas', strip: true } },
        middleware: { operations: { listItems: { transformResponseBody: { enabled: true, format: 'json', body: b64('{{. | xmlMarshal}}') } } } },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['rb-classic'], { meta_data: { tier: 'gold' } });
  });

  it('Classic JSON: the client gets the template output, with session metadata and context variables, and its Content-Length', async () => {
    const result = await gw.call('/rb/users/7?q=find', { headers: { authorization: key, 'accept-encoding': 'gzip' } });
    expect(result.status).toBe(200);
    const expected = '{"user":"Ada \\u003cA\\u0026B\\u003e","tier":"gold","q":"find","n":1.23456789e+08}';
    expect(result.text).toBe(expected);
    expect(result.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
    expect(result.headers['transfer-encoding']).toBeUndefined();
    expect(result.headers['x-upstream']).toBe('u');
    expect(last().headers['accept-encoding']).toBeUndefined();
  });

  it('Classic XML input', async () => {
    const result = await gw.call('/rb/names', { headers: { authorization: key } });
    expect(result.text).toBe('["Furkan","Bàr"]');
    expect(result.headers['content-length']).toBe(String(Buffer.byteLength('["Furkan","Bàr"]')));
  });

  it('OAS transformResponseBody; other methods and endpoints stream untouched', async () => {
    const result = await gw.call('/rb-oas/items');
    expect(result.text).toBe('<items><id>1</id></items><items><id>2</id></items>');
    const other = await gw.call('/rb/users/7', { method: 'POST', headers: { authorization: key }, body: '{}' });
    expect(other.text).toBe('{"name":"Ada <A&B>","n":123456789}');
    expect(other.headers['content-length']).toBeUndefined();
  });

  it('an encoded upstream body passes through untransformed, with a warning', async () => {
    const result = await gw.call('/rb/zipped', { headers: { authorization: key } });
    expect(result.status).toBe(200);
    expect(result.headers['content-encoding']).toBe('gzip');
    await expect.poll(() => gw.output().includes('response body transform skipped: the upstream body is encoded'), { timeout: 10_000 }).toBe(true);
  });

  it('a body past transform_max_body_bytes answers 502; the gateway keeps serving', async () => {
    const result = await gw.call('/rb/big', { headers: { authorization: key } });
    expect(result.status).toBe(502);
    expect(result.text).toBe(errorBody('Upstream response is too large to transform'));
    expect((await gw.call('/rb/names', { headers: { authorization: key } })).status).toBe(200);
  });

  it("a failing template answers 500 `Body transform failure`, logs Go's error, never the body", async () => {
    const result = await gw.call('/rb/fails', { headers: { authorization: key } });
    expect(result.status).toBe(500);
    expect(result.text).toBe(errorBody('Body transform failure'));
    await expect.poll(() => gw.output().includes('extended_paths.transform_response[4]'), { timeout: 10_000 }).toBe(true);
    expect(gw.output()).not.toContain('secret-response-value');
  });

  it('refuses transform_response without the response_body_transform processor, and unknown processors', async () => {
    const api = classicApi('rb-bad', '/rb-bad', upstream.url, {
      extended_paths: {
        transform_response: [{ path: '/a', method: 'GET', template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('x') } }],
      },
    });
    const missing = await gw.admin('POST', '/gw/apis', api);
    expect(missing.status).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain(
      'extended_paths.transform_response needs response_processors to list {"name": "response_body_transform"}',
    );
    const unknown = await gw.admin('POST', '/gw/apis', { ...api, response_processors: [{ name: 'response_body_transform' }, { name: 'header_transform' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('response_processors[1].name header_transform is not supported');
  });
});
