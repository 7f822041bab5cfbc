// Request body size limits through a real gateway process to a real echo upstream: the gateway-wide
// max_request_body_size, a version's global_size_limit, Classic size_limits and OAS requestSizeLimit; bodies with a
// Content-Length refused up front, chunked bodies counted and cut.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const TOO_LARGE = `{\n    "error": "Request is too large"\n}`;

describe('request size limits', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ max_request_body_size: 4096 });
    const apis = [
      classicApi('limited', '/limited', upstream.url, {
        use_keyless: true,
        version_data: { not_versioned: true, versions: { Default: { name: 'Default', global_size_limit: 1000 } } },
        extended_paths: { size_limits: [{ path: '/small', method: 'POST', size_limit: 10 }] },
      }),
      classicApi('open', '/open', upstream.url, { use_keyless: true }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status, JSON.stringify(api)).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas limits', version: '1' },
      paths: { '/upload': { post: { operationId: 'upload', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'oas-limits', name: 'oas limits', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/oas-limits', strip: true } },
        middleware: { operations: { upload: { requestSizeLimit: { enabled: true, value: 5 } } } },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
  });

  const post = (path: string, bytes: number) => gw.call(path, { method: 'POST', body: Buffer.alloc(bytes, 0x61) });

  /** The body sent chunked (no Content-Length), in pieces of `piece` bytes. */
  async function postChunked(path: string, bytes: number, piece = 4): Promise<{ status: number; text: string }> {
    const pieces: Buffer[] = [];
    for (let left = bytes; left > 0; left -= piece) pieces.push(Buffer.alloc(Math.min(piece, left), 0x62));
    const response = await request(`${gw.url}${path}`, { method: 'POST', body: Readable.from(pieces) });
    return { status: response.statusCode, text: await response.body.text() };
  }

  it("refuses a body over the endpoint's size_limits with 413 `Request is too large`, and forwards one at the limit", async () => {
    const over = await post('/limited/small', 11);
    expect(over.status).toBe(413);
    expect(over.text).toBe(TOO_LARGE);
    const at = await post('/limited/small', 10);
    expect(at.status).toBe(200);
    expect(at.json<Echo>().bodyBytes).toBe(10);
  });

  it("applies the version's global_size_limit to every other endpoint", async () => {
    expect((await post('/limited/other', 1001)).status).toBe(413);
    expect((await post('/limited/other', 1000)).status).toBe(200);
  });

  it('applies the gateway-wide max_request_body_size to an API without limits of its own', async () => {
    const over = await post('/open/anything', 4097);
    expect(over.status).toBe(413);
    expect(over.text).toBe(TOO_LARGE);
    expect((await post('/open/anything', 4096)).json<Echo>().bodyBytes).toBe(4096);
  });

  it('counts a chunked body and cuts it past the limit; one within it reaches the upstream whole', async () => {
    const before = upstream.requests.length;
    const over = await postChunked('/limited/small', 40);
    expect(over.status).toBe(413);
    expect(over.text).toBe(TOO_LARGE);
    expect(upstream.requests.length).toBe(before);
    const within = await postChunked('/limited/small', 10);
    expect(within.status).toBe(200);
    const echo = JSON.parse(within.text) as Echo;
    expect(echo.body).toBe('b'.repeat(10));
    expect(echo.headers['content-length']).toBe('10');
  });

  it('applies OAS requestSizeLimit to its operation only', async () => {
    expect((await post('/oas-limits/upload', 6)).status).toBe(413);
    expect((await post('/oas-limits/upload', 5)).status).toBe(200);
    expect((await post('/oas-limits/elsewhere', 100)).status).toBe(200);
  });
});
