// Request body transforms through a real gateway process and the real template engine (Go text/template + sprig;
// templates parsed in WebAssembly, run in the native engine process: template-engine-process.test.ts covers that
// process, and its outputs are compared with the WebAssembly engine's in native-executor.test.ts): the exact bytes a real echo upstream receives for JSON and XML bodies, Classic and OAS, blob and
// file templates, with the key's meta_data (._gw_meta) and the request's context (._gw_context); methods and paths
// no transform names stream untouched; a template that does not parse refuses the API; failures answer without
// ever logging the body.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { builtTemplateEngine } from '../../support/template-engine.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A request whose body has no Content-Length (undici sends a stream chunked). */
async function sendChunked(url: string, method: 'POST' | 'PUT', headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const response = await request(url, { method, headers, body: Readable.from([body.slice(0, 10), body.slice(10)]) });
  return { status: response.statusCode, text: await response.body.text() };
}

const CLASSIC_TEMPLATE =
  '{"user":{{.name | jsonMarshal}},"tier":{{._gw_meta.tier | jsonMarshal}},"type":{{index ._gw_context.request_data.type 0 | jsonMarshal}},"part":{{index ._gw_context.path_parts 2 | jsonMarshal}},"n":{{.n}}}';
const XML_FILE_TEMPLATE =
  '{"names":[{{range $i, $n := .names.name}}{{if $i}},{{end}}{{$n | jsonMarshal}}{{end}}],"lang":{{index .names "-lang" | jsonMarshal}}}';

describe('request body transforms', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  const last = (): Echo => upstream.requests.at(-1)!;

  beforeAll(async () => {
    process.env.GW_TEMPLATE_ENGINE = builtTemplateEngine();
    upstream = await startUpstream();
    gw = await startGateway({ transform_max_body_bytes: 4096, transform_timeout_ms: 500 });
    const xmlTemplateFile = join(gw.dir, 'names.tmpl');
    writeFileSync(xmlTemplateFile, XML_FILE_TEMPLATE);
    const apis = [
      classicApi('tr-classic', '/tr', upstream.url, {
        enable_context_vars: true,
        extended_paths: {
          transform: [
            {
              path: '/users',
              method: 'POST',
              template_data: { input_type: 'json', enable_session: true, template_mode: 'blob', template_source: b64(CLASSIC_TEMPLATE) },
            },
            { path: '/names', method: 'PUT', template_data: { input_type: 'xml', template_mode: 'file', template_source: xmlTemplateFile } },
            { path: '/fails', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('{{.a.b}}') } },
            {
              path: '/loops',
              method: 'POST',
              template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('{{range $i := 100000000000}}{{end}}') },
            },
          ],
        },
      }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status, JSON.stringify(api)).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas', version: '1' },
      paths: {
        '/orders': { post: { operationId: 'createOrder', responses: {} } },
        '/orders/{id}': { patch: { operationId: 'patchOrder', responses: {} } },
      },
      'x-gw-api-gateway': {
        info: { id: 'tr-oas', name: 'tr oas', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/tr-oas', strip: true } },
        middleware: { global: { contextVariables: { enabled: true } } },
        operations: {
          // body wins over path: the path names no file, and is never read
          createOrder: {
            transformRequestBody: { enabled: true, format: 'json', body: b64('{{dict "order" .order | xmlMarshal}}'), path: '/nonexistent/template' },
          },
          patchOrder: { transformRequestBody: { enabled: true, format: 'xml', path: xmlTemplateFile } },
        },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['tr-classic'], { meta_data: { tier: 'gold' } });
  });

  it('Classic blob, JSON input: the upstream receives the template output with session metadata and request data', async () => {
    const result = await gw.call('/tr/users?type=admin&type=x', {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: '{"name":"Ahmet <A&B>","n":123456789}',
    });
    expect(result.status).toBe(200);
    const expected = '{"user":"Ahmet \\u003cA\\u0026B\\u003e","tier":"gold","type":"admin","part":"users","n":1.23456789e+08}';
    expect(last().body).toBe(expected);
    expect(last().headers['content-length']).toBe(String(Buffer.byteLength(expected)));
    expect(last().headers['transfer-encoding']).toBeUndefined();
  });

  it('Classic file, XML input: attributes and repeated elements as Tyk maps them; a chunked body gets a Content-Length', async () => {
    const body = '<?xml version="1.0"?><names lang="tr"><name>Furkan</name><name>Bàr"</name></names>';
    const result = await sendChunked(`${gw.url}/tr/names`, 'PUT', { authorization: key }, body);
    expect(last().headers['transfer-encoding']).toBeUndefined();
    expect(result.status).toBe(200);
    const expected = '{"names":["Furkan","Bàr\\""],"lang":"tr"}';
    expect(last().body).toBe(expected);
    expect(last().headers['content-length']).toBe(String(Buffer.byteLength(expected)));
  });

  it("OAS blob (wins over path), JSON input to XML output (sprig's dict, as context variables are on)", async () => {
    const result = await gw.call('/tr-oas/orders', { method: 'POST', body: '{"order":{"id":"7","item":["pen","ink"]}}' });
    expect(result.status).toBe(200);
    expect(last().body).toBe('<order><id>7</id><item>pen</item><item>ink</item></order>');
    expect(last().headers['content-length']).toBe(String(Buffer.byteLength(last().body)));
  });

  it('OAS file template on a path with a parameter, XML input', async () => {
    const result = await gw.call('/tr-oas/orders/42', { method: 'PATCH', body: '<names lang="en"><name>Ada</name><name>Bo</name></names>' });
    expect(result.status).toBe(200);
    expect(last().body).toBe('{"names":["Ada","Bo"],"lang":"en"}');
    expect(last().headers['content-length']).toBe('34');
  });

  it('leaves other methods and paths untouched, streaming the body as sent', async () => {
    const body = '{"name":"unchanged"}';
    await gw.call('/tr/users', { method: 'PUT', headers: { authorization: key }, body });
    expect(last().body).toBe(body);
    await gw.call('/tr-oas/other', { method: 'POST', body });
    expect(last().body).toBe(body);
  });

  it("a template failing at run time answers 500 `Body transform failure` and logs Go's error, never the body", async () => {
    const before = upstream.requests.length;
    const result = await gw.call('/tr/fails', { method: 'POST', headers: { authorization: key }, body: '{"a":"secret-body-value"}' });
    expect(result.status).toBe(500);
    expect(result.text).toBe(errorBody('Body transform failure'));
    expect(upstream.requests.length).toBe(before);
    await expect.poll(() => gw.output().includes('Body transform failure'), { timeout: 10_000 }).toBe(true);
    const logged = gw
      .output()
      .split('\n')
      .find((line) => line.includes('Body transform failure'));
    expect(logged).toContain('executing \\"extended_paths.transform[2]\\" at <.a.b>');
    expect(gw.output()).not.toContain('secret-body-value');
  });

  it('a template running past transform_timeout_ms is stopped: 500, logged; other requests and later transforms are served', async () => {
    const slow = gw.call('/tr/loops', { method: 'POST', headers: { authorization: key }, body: '{"secret":"secret-loop-body"}' });
    const plain = await gw.call('/tr-oas/other', { method: 'POST', body: '{"plain":true}' });
    expect(plain.status).toBe(200);
    const stopped = await slow;
    expect(stopped.status).toBe(500);
    expect(stopped.text).toBe(errorBody('Body transform failure'));
    await expect.poll(() => gw.output().includes('ran longer than 500 ms'), { timeout: 10_000 }).toBe(true);
    expect(gw.output()).not.toContain('secret-loop-body');
    const after = await gw.call('/tr-oas/orders', { method: 'POST', body: '{"order":{"id":"8"}}' });
    expect(after.status).toBe(200);
    expect(last().body).toBe('<order><id>8</id></order>');
  });

  it("a body that is not the declared format is the client's error: 400 naming the format", async () => {
    const json = await gw.call('/tr/users', { method: 'POST', headers: { authorization: key }, body: '{"name":' });
    expect(json.status).toBe(400);
    expect(json.text).toBe(errorBody('the request body is not valid JSON (this endpoint transforms it as json)'));
    const xml = await gw.call('/tr/names', { method: 'PUT', headers: { authorization: key }, body: '<names>' });
    expect(xml.status).toBe(400);
    expect(xml.text).toBe(errorBody('the request body is not valid XML (this endpoint transforms it as xml)'));
  });

  it('a body larger than transform_max_body_bytes is refused with 413, declared or streamed; the gateway keeps serving', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000) });
    const declared = await gw.call('/tr/users', { method: 'POST', headers: { authorization: key }, body: big });
    expect(declared.status).toBe(413);
    expect(declared.text).toBe(errorBody('Request is too large'));
    const streamed = await sendChunked(`${gw.url}/tr/users`, 'POST', { authorization: key }, big);
    expect(streamed.status).toBe(413);
    expect((await gw.call('/tr/users?type=t', { method: 'POST', headers: { authorization: key }, body: '{"name":"ok","n":1}' })).status).toBe(200);
  });

  it("refuses an API whose template does not parse, naming the field and Go's error with its line", async () => {
    const api = classicApi('tr-bad', '/tr-bad', upstream.url, {
      use_keyless: true,
      extended_paths: {
        transform: [{ path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('ok\n{{ .a }') } }],
      },
    });
    const refused = await gw.admin('POST', '/gw/apis', api);
    expect(refused.status).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      'Validation of API Definition failed. Reason: extended_paths.transform[0]: the template does not parse: template: extended_paths.transform[0]:2: unexpected "}" in operand.',
    );
    const notBase64 = await gw.admin('POST', '/gw/apis', {
      ...api,
      extended_paths: {
        transform: [{ path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: 'not base64!' } }],
      },
    });
    expect(notBase64.status).toBe(400);
    expect(notBase64.json<{ message: string }>().message).toContain(
      'extended_paths.transform[0].template_data.template_source must be a base64-encoded template',
    );
    const getOnly = await gw.admin('POST', '/gw/apis', {
      ...api,
      extended_paths: { transform: [{ path: '/x', method: 'GET', template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('x') } }] },
    });
    expect(getOnly.status).toBe(400);
    expect(getOnly.json<{ message: string }>().message).toContain('extended_paths.transform[0].method must be PUT, POST or PATCH');
  });
});

describe('request body transforms without the built engine', () => {
  it('refuses an API using transforms with how to build the engine, and serves the others', async () => {
    const upstream = await startUpstream();
    const saved = process.env.GW_TEMPLATE_ENGINE;
    process.env.GW_TEMPLATE_ENGINE = '/nonexistent/template-engine.wasm';
    let gw: RunningGateway;
    try {
      gw = await startGateway();
    } finally {
      process.env.GW_TEMPLATE_ENGINE = saved;
    }
    const transform = { path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('{{.a}}') } };
    const refused = await gw.admin(
      'POST',
      '/gw/apis',
      classicApi('needs-engine', '/needs-engine', upstream.url, { use_keyless: true, extended_paths: { transform: [transform] } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(
      'Validation of API Definition failed. Reason: extended_paths.transform[0]: the template engine is not built: run `npm run build:template-engine` (scripts/build-template-engine.sh, needs Go >= 1.24) or set GW_TEMPLATE_ENGINE to a built template-engine.wasm (looked for /nonexistent/template-engine.wasm).',
    );
    await addApi(gw, classicApi('plain', '/plain', upstream.url, { use_keyless: true }));
    expect((await gw.call('/plain/x', { method: 'POST', body: '{"a":1}' })).status).toBe(200);
  });
});

// Two steps need the body before the upstream: basic auth reading credentials from it, then a transform. The first
// read spends the client's stream; the transform must see the same bytes (pipeline/request-body.ts), never an
// empty body, and the upstream must get the transformed one. Failed when each step kept its own copy of the body.
describe('a body transform after basic-auth credentials read from the body', () => {
  it('transforms the body the credentials came from, and the upstream receives the transformed bytes', async () => {
    process.env.GW_TEMPLATE_ENGINE = builtTemplateEngine();
    const upstream = await startUpstream();
    const gw = await startGateway();
    await addApi(
      gw,
      classicApi('tr-basic-body', '/trb', upstream.url, {
        use_basic_auth: true,
        basic_auth: { extract_from_body: true, body_user_regexp: '"user":"([^"]*)"', body_password_regexp: '"password":"([^"]*)"' },
        extended_paths: {
          transform: [
            {
              path: '/login',
              method: 'POST',
              template_data: { input_type: 'json', template_mode: 'blob', template_source: b64('{"who":{{.user | jsonMarshal}},"n":{{.n}}}') },
            },
          ],
        },
      }),
    );
    const access_rights = { 'tr-basic-body': { api_id: 'tr-basic-body', versions: [] } };
    expect((await gw.admin('POST', '/gw/keys/body-user', { basic_auth_data: { password: 'body-password' }, access_rights })).status).toBe(200);
    const body = '{"user":"body-user","password":"body-password","n":7}';
    const answered = await gw.call('/trb/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answered.status).toBe(200);
    expect(upstream.requests.at(-1)!.body).toBe('{"who":"body-user","n":7}');
    const wrong = await gw.call('/trb/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.replace('body-password', 'nope') });
    expect(wrong.status).toBe(401);
    expect(upstream.requests).toHaveLength(1);
  });
});
