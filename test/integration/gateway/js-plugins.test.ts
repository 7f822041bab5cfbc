// JavaScript plugins (custom_middleware, driver otto) and virtual endpoints through a real gateway and a real echo
// upstream: a pre plugin's header reaching the upstream (from a file, with config_data), a post_key_auth plugin
// reading the session, a response plugin editing the answer, virtual endpoints answering with TykJsResponse and
// with TykMakeHttpRequest, and isolation: an endless loop answered 500 while other requests are served, a plugin
// reaching for `process` answered 500. One gateway for every case.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, errorBody, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const middleware = (name: string, body: string) =>
  `var ${name} = new TykJS.TykMiddleware.NewMiddleware({});\n${name}.NewProcessRequest(function (request, session, config) {\n${body}\n});`;

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('JavaScript plugins', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  const last = (): Echo => upstream.requests.at(-1)!;

  beforeAll(async () => {
    upstream = await startUpstream((req, res) => {
      if (req.url?.startsWith('/from-plugin')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"answer":42}');
        return true;
      }
      return false;
    });
    // The endless loop's time limit must outlast the start of the second plugin worker, which serves the request sent
    // meanwhile: in a loaded full run that start took over 2 s, and the loop's 500 came first.
    gw = await startGateway({ enable_jsvm: true, jsvm_timeout: 8, jsvm_workers: 2 });
    const dir = mkdtempSync(join(tmpdir(), 'gw-js-'));
    const preFile = join(dir, 'pre.js');
    writeFileSync(
      preFile,
      middleware('addHeader', "request.SetHeaders['X-From-Pre'] = config.config_data.greeting; return addHeader.ReturnData(request, {});"),
    );
    const apis = [
      classicApi('js-pre', '/js-pre', upstream.url, {
        use_keyless: true,
        config_data: { greeting: 'hello' },
        custom_middleware: { driver: 'otto', pre: [{ name: 'addHeader', path: preFile }] },
      }),
      classicApi('js-auth', '/js-auth', upstream.url, {
        auth: { auth_header_name: 'authorization' },
        extended_paths: {
          virtual: [
            {
              path: '/promote',
              method: 'POST',
              response_function_name: 'promote',
              use_session: true,
              function_source_type: 'blob',
              function_source_uri: b64(
                "function promote(request, session) { return TykJsResponse({ Body: 'was ' + session.meta_data.tier, Code: 200, Headers: {} }, { tier: 'platinum' }); }",
              ),
            },
          ],
        },
        custom_middleware: {
          driver: 'otto',
          post_key_auth: [
            {
              name: 'readSession',
              require_session: true,
              code: middleware(
                'readSession',
                "request.SetHeaders['X-Tier'] = session.meta_data.tier; return readSession.ReturnData(request, session.meta_data);",
              ),
            },
          ],
        },
      }),
      classicApi('js-resp', '/js-resp', upstream.url, {
        use_keyless: true,
        custom_middleware: {
          driver: 'otto',
          response: [
            {
              name: 'shout',
              code: `var shout = new TykJS.TykMiddleware.NewMiddleware({});
shout.NewProcessResponse(function (response, request, session, config) {
  response.SetHeaders['X-Response-Plugin'] = 'yes';
  response.Body = 'status was ' + response.StatusCode;
  response.StatusCode = 202;
  return shout.ReturnResponseData(response, {});
});`,
            },
          ],
        },
      }),
      classicApi('js-virtual', '/js-virtual', upstream.url, {
        use_keyless: true,
        extended_paths: {
          virtual: [
            {
              path: '/hello',
              method: 'GET',
              response_function_name: 'hello',
              function_source_type: 'blob',
              function_source_uri: b64(
                "function hello(request, session, config) { return TykJsResponse({ Body: 'hello ' + request.Params.name[0], Code: 201, Headers: { 'X-Virtual': 'yes' } }, session.meta_data); }",
              ),
            },
            {
              path: '/broken',
              method: 'GET',
              response_function_name: 'broken',
              function_source_type: 'blob',
              function_source_uri: b64("function broken() { throw new Error('no'); }"),
            },
            {
              path: '/broken-proxied',
              method: 'GET',
              response_function_name: 'broken',
              proxy_on_error: true,
              function_source_type: 'blob',
              function_source_uri: b64("function broken() { throw new Error('no'); }"),
            },
            {
              path: '/batch',
              method: 'GET',
              response_function_name: 'batch',
              function_source_type: 'blob',
              function_source_uri: b64(
                "function batch() { var replies = JSON.parse(TykBatchRequest(JSON.stringify({ requests: [{ method: 'GET', relative_url: '/from-plugin', headers: {} }] }))); return TykJsResponse({ Body: replies[0].code + ' ' + replies[0].body, Code: 200, Headers: {} }, {}); }",
              ),
            },
            {
              path: '/fetch',
              method: 'GET',
              response_function_name: 'fetchUpstream',
              function_source_type: 'blob',
              function_source_uri: b64(
                `function fetchUpstream(request) { var answer = JSON.parse(TykMakeHttpRequest(JSON.stringify({ Method: 'GET', Domain: '${upstream.url}', Resource: '/from-plugin', Headers: {} }))); return TykJsResponse({ Body: 'upstream said ' + JSON.parse(answer.Body).answer + ' with ' + answer.Code, Code: 200, Headers: {} }, {}); }`,
              ),
            },
          ],
        },
      }),
      classicApi('js-loop', '/js-loop', upstream.url, {
        use_keyless: true,
        custom_middleware: { driver: 'otto', pre: [{ name: 'spin', code: middleware('spin', 'for (;;) {}') }] },
      }),
      classicApi('js-process', '/js-process', upstream.url, {
        use_keyless: true,
        custom_middleware: {
          driver: 'otto',
          pre: [
            { name: 'escape', code: middleware('escape', "request.SetHeaders['X-Env'] = String(process.env.HOME); return escape.ReturnData(request, {});") },
          ],
        },
      }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['js-auth'], { meta_data: { tier: 'gold' } });
  });

  it('a pre plugin (a file) sets a header the upstream receives, from the config data', async () => {
    const result = await gw.call('/js-pre/anything');
    expect(result.status).toBe(200);
    expect(last().headers['x-from-pre']).toBe('hello');
  });

  it('a post_key_auth plugin reads the session of the key', async () => {
    const result = await gw.call('/js-auth/who', { headers: { authorization: key } });
    expect(result.status).toBe(200);
    expect(last().headers['x-tier']).toBe('gold');
    expect((await gw.call('/js-auth/who')).status).toBe(401);
  });

  it("a response plugin edits the upstream's answer: header, body and status", async () => {
    const result = await gw.call('/js-resp/x');
    expect(result.status).toBe(202);
    expect(result.headers['x-response-plugin']).toBe('yes');
    expect(result.text).toBe('status was 200');
  });

  it('a virtual endpoint answers with TykJsResponse, never calling the upstream', async () => {
    const before = upstream.requests.length;
    const result = await gw.call('/js-virtual/hello?name=ada');
    expect(result.status).toBe(201);
    expect(result.text).toBe('hello ada');
    expect(result.headers['x-virtual']).toBe('yes');
    expect(upstream.requests.length).toBe(before);
  });

  it('a virtual endpoint calls out with TykMakeHttpRequest', async () => {
    const result = await gw.call('/js-virtual/fetch');
    expect(result.status).toBe(200);
    expect(result.text).toBe('upstream said 42 with 200');
  });

  it("a failing virtual endpoint answers Tyk's 500, or with proxy_on_error hands the request to the upstream", async () => {
    const failed = await gw.call('/js-virtual/broken');
    expect(failed.status).toBe(500);
    expect(failed.text).toBe(errorBody('Error during virtual endpoint execution. Contact Administrator for more details.'));
    const proxied = await gw.call('/js-virtual/broken-proxied');
    expect(proxied.status).toBe(200);
    expect(last().url).toBe('/broken-proxied');
  });

  it('TykBatchRequest sends a relative URL through this gateway, under the API', async () => {
    const result = await gw.call('/js-virtual/batch');
    expect(result.text).toBe('200 {"answer":42}');
    expect(last().url).toBe('/from-plugin');
  });

  it("a virtual endpoint with use_session reads the key's session and replaces its meta_data", async () => {
    const other = await addKey(gw, ['js-auth'], { meta_data: { tier: 'silver' } });
    const result = await gw.call('/js-auth/promote', { method: 'POST', headers: { authorization: other } });
    expect(result.text).toBe('was silver');
    const stored = await gw.admin('GET', `/gw/keys/${other}`);
    expect(stored.json<{ meta_data: unknown }>().meta_data).toEqual({ tier: 'platinum' });
  });

  it('an endless loop is answered 500 after the time limit while other requests are served', async () => {
    let loopDone = false;
    const looping = gw.call('/js-loop/x').then((result) => {
      loopDone = true;
      return result;
    });
    const other = await gw.call('/js-pre/meanwhile');
    expect(other.status).toBe(200);
    expect(loopDone).toBe(false);
    const result = await looping;
    expect(result.status).toBe(500);
    expect(result.text).toBe(errorBody('Internal Server Error'));
    expect((await gw.call('/js-pre/after')).status).toBe(200);
  });

  it('a plugin has no process: reading it fails that request with 500, and nothing reaches the upstream', async () => {
    const before = upstream.requests.length;
    const result = await gw.call('/js-process/x');
    expect(result.status).toBe(500);
    expect(result.text).toBe(errorBody('Internal Server Error'));
    expect(upstream.requests.length).toBe(before);
    await waitUntil('the failure logged with its reason', () => gw.output().includes('process is not defined'));
  });
});
