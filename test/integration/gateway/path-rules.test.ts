// Endpoint lists and allowed_urls against respelled paths (issue 10, items 3 and 4): a black_list entry cannot be
// walked around by case, trailing slashes, matrix parameters, encoded separators, padding or extensions, and a
// dot-segment in disguise (`..;`) is refused before it can climb out of an allowed path. A real gateway process and
// a real upstream that records every request it sees: the assertion is that the upstream never saw the request.
// A Tyk OAS API's operation block and ignoreAuthentication hold against the same spellings, and an operation served
// without authentication opens no neighbouring operation.
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, rawHttp, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const FORBIDDEN = `{\n    "error": "Requested endpoint is forbidden"\n}`;

/** The audit's bypasses of `black_list [{path: "/admin", method: GET}]`, plus a few of the same family. */
const BLOCKED_SPELLINGS = [
  '/admin',
  '/admin/',
  '/ADMIN',
  '/Admin',
  '/admin;x',
  '/admin%3bx',
  '/admin%3Bx',
  '/admin%20',
  '/admin%09',
  '/admin.',
  '/admin.json',
  '/admin/x',
  '/%61dmin',
  '/x/../admin',
  '/admin;jsessionid=1/x',
  '/ADMIN.JSON',
  '/admin%2e',
];

const operation = (operationId: string) => ({ operationId, responses: {} });

/** A keyed Tyk OAS API blocking GET /admin and serving GET /pets/{id} without authentication. */
function oasListsApi(url: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'oas-lists', version: '1' },
    paths: {
      '/admin': { get: operation('admin') },
      '/pets/{id}': { get: operation('getPet') },
      '/pets/{id}/owner': { get: operation('getPetOwner') },
      '/pets/mine': { get: operation('getMyPets') },
    },
    components: { securitySchemes: { key: { type: 'apiKey', name: 'authorization', in: 'header' } } },
    'x-gw-api-gateway': {
      info: { id: 'oas-lists', name: 'oas-lists', state: { active: true } },
      upstream: { url },
      server: { listenPath: { value: '/oas-lists', strip: true }, authentication: { enabled: true, securitySchemes: { key: { enabled: true } } } },
      middleware: { operations: { admin: { block: { enabled: true } }, getPet: { ignoreAuthentication: { enabled: true } } } },
    },
  };
}

describe('path rules through a real gateway', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let key: string;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    const apis = [
      classicApi('blocked', '/blocked', upstream.url, {
        use_keyless: true,
        extended_paths: {
          black_list: [
            { path: '/admin', method: 'GET' },
            { path: '/exact$', method: 'GET' },
            { path: '/items', method: 'DELETE' },
          ],
        },
      }),
      classicApi('allowed', '/allowed', upstream.url, {
        use_keyless: true,
        extended_paths: { white_list: [{ path: '/public', method_actions: { GET: { action: 'no_action' } } }] },
      }),
      classicApi('scoped', '/scoped', upstream.url),
      classicApi('ignoring', '/ignoring', upstream.url, {
        extended_paths: { ignored: [{ path: '/health', method_actions: { GET: { action: 'no_action' } } }] },
      }),
    ];
    for (const api of apis) expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    const created = await gw.admin('POST', '/gw/apis/oas', oasListsApi(upstream.url));
    expect(created.status, created.text).toBe(200);
    await gw.reload();
    key = await addKey(gw, [], {
      access_rights: { scoped: { api_id: 'scoped', versions: [], allowed_urls: [{ url: '/open/{rest}', methods: ['GET'] }] } },
    });
  });

  const seenUpstream = (fragment: RegExp): string[] => upstream.requests.map((r) => r.url).filter((url) => fragment.test(url));

  it('black_list: every spelling of a blocked path and of its sub-resources answers 403 and never reaches the upstream', async () => {
    for (const path of BLOCKED_SPELLINGS) {
      const result = await rawHttp(gw.url, `/blocked${path}`);
      expect(result.status, path).toBe(403);
      expect(result.text, path).toBe(FORBIDDEN);
    }
    const head = await rawHttp(gw.url, '/blocked/ADMIN/', {}, 'HEAD');
    expect(head.status, 'HEAD of a GET-blocked path').toBe(403);
    expect(seenUpstream(/admin/i)).toEqual([]);
  });

  it('black_list: a different resource sharing the prefix, and other methods, still pass', async () => {
    expect((await rawHttp(gw.url, '/blocked/administrator')).status).toBe(200);
    expect((await rawHttp(gw.url, '/blocked/admin', {}, 'POST')).status).toBe(200);
    expect(seenUpstream(/admin/i)).toEqual(['/administrator', '/admin']);
  });

  it('black_list: an entry ending in $ blocks the resource in every spelling but not its sub-paths', async () => {
    for (const path of ['/exact', '/EXACT/', '/exact;x', '/exact%20', '/exact.']) expect((await rawHttp(gw.url, `/blocked${path}`)).status, path).toBe(403);
    expect(seenUpstream(/exact/i)).toEqual([]);
    expect((await rawHttp(gw.url, '/blocked/exact/child')).status).toBe(200);
    expect(seenUpstream(/exact/i)).toEqual(['/exact/child']);
  });

  it('white_list: the listed path passes; respellings are not widened into it (403, never forwarded)', async () => {
    expect((await rawHttp(gw.url, '/allowed/public')).status).toBe(200);
    for (const path of ['/PUBLIC', '/public/', '/public;x', '/public%3Bx', '/public.json', '/public/x', '/private']) {
      expect((await rawHttp(gw.url, `/allowed${path}`)).status, path).toBe(403);
    }
    expect(seenUpstream(/public|private/i)).toEqual(['/public']);
  });

  it('refuses dot-segments in disguise with 400, so they cannot leave an allowed_urls prefix', async () => {
    const auth = { authorization: key };
    expect((await rawHttp(gw.url, '/scoped/open/x', auth)).status).toBe(200);
    expect((await rawHttp(gw.url, '/scoped/secret', auth)).status).toBe(403);
    for (const path of [
      '/open/..;/..;/secret',
      '/open/..;/secret',
      '/open/%2e%2e;/secret',
      '/open/%2E%2E%3B/secret',
      '/open/..%3b/secret',
      '/open/.;/../secret',
      '/open/%2e;/x',
      '/open/..%20/secret',
    ]) {
      const result = await rawHttp(gw.url, `/scoped${path}`, auth);
      expect(result.status, path).toBe(400);
      expect(result.text, path).toMatch(/dot-segment/);
    }
    expect(seenUpstream(/secret|;/)).toEqual([]);
  });

  it('a method override header cannot carry a blocked, unauthenticated or unpermitted method past the rules', async () => {
    const auth = { authorization: key };
    for (const header of ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override']) {
      // black_list DELETE /items: a POST claiming to be a DELETE is blocked too
      expect((await rawHttp(gw.url, '/blocked/items', { [header]: 'delete' }, 'POST')).status, header).toBe(403);
      // ignored GET /health skips authentication for GET only, not for a GET that claims to be a DELETE
      expect((await rawHttp(gw.url, '/ignoring/health', { [header]: 'DELETE' })).status, header).toBe(401);
      // allowed_urls /open/{rest} GET only: a GET claiming to be a POST is not permitted
      expect((await rawHttp(gw.url, '/scoped/open/x', { ...auth, [header]: 'POST' })).status, header).toBe(403);
    }
    expect(seenUpstream(/items|health/)).toEqual([]);
    // the plain requests still behave as before
    expect((await rawHttp(gw.url, '/blocked/items', {}, 'POST')).status).toBe(200);
    expect((await rawHttp(gw.url, '/ignoring/health')).status).toBe(200);
    expect((await rawHttp(gw.url, '/scoped/open/x', { ...auth, 'X-HTTP-Method-Override': 'GET' })).status).toBe(200);
  });

  it('OAS: an operation block holds against every spelling, and ignoreAuthentication opens no neighbouring operation', async () => {
    const before = upstream.requests.length;
    for (const path of [...BLOCKED_SPELLINGS, '/admin//x', '/./admin']) expect((await rawHttp(gw.url, `/oas-lists${path}`)).status, path).toBe(403);
    expect((await rawHttp(gw.url, '/oas-lists/ADMIN/', {}, 'HEAD')).status).toBe(403);
    expect((await rawHttp(gw.url, '/oas-lists/pets/7')).status).toBe(200);
    for (const path of ['/pets/7/owner', '/pets/7//owner', '/pets/7/./owner', '/pets/x/../7/owner', '/pets/mine', '/pets/mine;x', '/pets/MINE', '/pets/7/']) {
      expect((await rawHttp(gw.url, `/oas-lists${path}`)).status, path).toBe(401);
    }
    expect(upstream.requests.slice(before).map((r) => r.url)).toEqual(['/pets/7']);
  });
});
