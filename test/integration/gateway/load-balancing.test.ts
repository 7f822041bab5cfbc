// Load balancing (Classic proxy.enable_load_balancing + target_list, OAS upstream.loadBalancing) through a real
// gateway process and real upstreams: requests go round robin over the targets, starting at the first, each
// target's base path kept; a target listed twice (OAS: weight 2) gets twice the share, weight 0 none; a version's
// override_target still wins; an empty list is refused with 400 naming the field (skipping down hosts:
// uptime-tests.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

/** Which upstream answered each request, by the name its handler gives it. */
function namedUpstream(name: string): Promise<Upstream> {
  return startUpstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ upstream: name, url: req.url }));
    return true;
  });
}

function oasApi(id: string, listenPath: string, upstream: Record<string, unknown>): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: id, version: '1' },
    paths: {},
    'x-gw-api-gateway': { info: { id, name: id, state: { active: true } }, upstream, server: { listenPath: { value: listenPath, strip: true } } },
  };
}

describe('load balancing', () => {
  let gw: RunningGateway;
  let a: Upstream;
  let b: Upstream;
  let c: Upstream;

  beforeAll(async () => {
    [a, b, c] = await Promise.all([namedUpstream('a'), namedUpstream('b'), namedUpstream('c')]);
    gw = await startGateway();
    const apis: [string, Record<string, unknown>][] = [
      [
        '/gw/apis',
        classicApi('lb', '/lb', '', {
          use_keyless: true,
          proxy: { listen_path: '/lb', strip_listen_path: true, enable_load_balancing: true, target_list: [`${a.url}/base-a`, `${b.url}/base-b`] },
        }),
      ],
      [
        '/gw/apis',
        classicApi('lb-twice', '/lb-twice', a.url, {
          use_keyless: true,
          proxy: { listen_path: '/lb-twice', target_url: a.url, strip_listen_path: true, enable_load_balancing: true, target_list: [a.url, a.url, b.url] },
        }),
      ],
      [
        '/gw/apis',
        classicApi('lb-off', '/lb-off', c.url, {
          use_keyless: true,
          proxy: { listen_path: '/lb-off', target_url: c.url, strip_listen_path: true, enable_load_balancing: false, target_list: [a.url, b.url] },
        }),
      ],
      [
        '/gw/apis',
        classicApi('lb-override', '/lb-override', '', {
          use_keyless: true,
          proxy: { listen_path: '/lb-override', strip_listen_path: true, enable_load_balancing: true, target_list: [a.url, b.url] },
          definition: { location: 'header', key: 'x-api-version' },
          version_data: { not_versioned: false, default_version: 'v1', versions: { v1: { name: 'v1' }, v2: { name: 'v2', override_target: c.url } } },
        }),
      ],
      [
        '/gw/apis/oas',
        oasApi('lb-oas', '/lb-oas', {
          url: a.url,
          loadBalancing: {
            enabled: true,
            targets: [
              { url: a.url, weight: 0 },
              { url: b.url, weight: 2 },
              { url: c.url, weight: 1 },
            ],
          },
        }),
      ],
    ];
    for (const [path, api] of apis) {
      const created = await gw.admin('POST', path, api);
      expect(created.status, created.text).toBe(200);
    }
    await gw.reload();
  });

  async function answers(path: string, count: number, headers: Record<string, string> = {}): Promise<string[]> {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const reply = await gw.call(path, { headers });
      expect(reply.status, reply.text).toBe(200);
      const body = reply.json<{ upstream: string; url: string }>();
      names.push(`${body.upstream}${body.url}`);
    }
    return names;
  }

  it('sends 4 requests round robin over two targets, starting at the first, each with its base path', async () => {
    expect(await answers('/lb/x', 4)).toEqual(['a/base-a/x', 'b/base-b/x', 'a/base-a/x', 'b/base-b/x']);
  });

  it('gives a target listed twice twice the share', async () => {
    expect(await answers('/lb-twice/y', 6)).toEqual(['a/y', 'a/y', 'b/y', 'a/y', 'a/y', 'b/y']);
  });

  it('ignores target_list unless enable_load_balancing is set', async () => {
    expect(await answers('/lb-off/z', 2)).toEqual(['c/z', 'c/z']);
  });

  it("lets a version's override_target win over the balanced targets", async () => {
    expect(await answers('/lb-override/v', 2, { 'x-api-version': 'v2' })).toEqual(['c/v', 'c/v']);
    expect(await answers('/lb-override/v', 2, { 'x-api-version': 'v1' })).toEqual(['a/v', 'b/v']);
  });

  it('weights OAS targets: weight 2 twice, weight 0 never', async () => {
    expect(await answers('/lb-oas/w', 6)).toEqual(['b/w', 'b/w', 'c/w', 'b/w', 'b/w', 'c/w']);
  });

  it.each([
    [
      'an empty target_list',
      '/gw/apis',
      classicApi('lb-empty', '/lb-empty', 'http://127.0.0.1:9', {
        use_keyless: true,
        proxy: { listen_path: '/lb-empty', target_url: 'http://127.0.0.1:9', enable_load_balancing: true, target_list: [] },
      }),
      'proxy.target_list',
    ],
  ])('refuses %s with 400 naming the field', async (_what, path, api, field) => {
    const refused = await gw.admin('POST', path, api);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(field);
  });
});
