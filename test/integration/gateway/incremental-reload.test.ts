// A reload compiles only the APIs whose inputs changed (src/gateway/compiled-apis.ts), on every worker: one real
// gateway process on 2 worker threads serving 100 file-mode APIs in front of a real upstream. After one file
// changes, the reload serves the change, every other API answers as before, and each worker's load reports one API
// compiled and the others kept; a definition that no longer compiles is refused while the rest stay served.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const APIS = 100;
const WORKERS = 2;

const api = (i: number, targetPath = `/v1-${i}`): Record<string, unknown> =>
  classicApi(`api-${i}`, `/api-${i}`, '', {
    use_keyless: true,
    proxy: { listen_path: `/api-${i}`, target_url: `${upstreamUrl}${targetPath}`, strip_listen_path: true },
  });

let upstreamUrl = '';

/** The counts of every `configuration loaded` line the gateway logged so far. */
function loads(gateway: RunningGateway): { compiled: number; reused: number }[] {
  return gateway
    .output()
    .split('\n')
    .filter((line) => line.includes('"configuration loaded"'))
    .map((line) => JSON.parse(line) as { compiled: number; reused: number })
    .map(({ compiled, reused }) => ({ compiled, reused }));
}

describe('incremental reload', () => {
  let gateway: RunningGateway;
  let upstream: Upstream;
  const upstreamPath = async (i: number): Promise<string> => {
    const answer = await gateway.call(`/api-${i}/x`);
    expect(answer.status).toBe(200);
    return answer.json<{ url: string }>().url;
  };
  const write = (i: number, definition: Record<string, unknown> | string): void =>
    writeFileSync(join(gateway.dir, 'apps', `api-${i}.json`), typeof definition === 'string' ? definition : JSON.stringify(definition));

  beforeAll(async () => {
    upstream = await startUpstream();
    upstreamUrl = upstream.url;
    const apps = Object.fromEntries(Array.from({ length: APIS }, (_, i) => [`api-${i}.json`, api(i)]));
    gateway = await startGateway({}, { apps, env: { GW_GATEWAY_WORKERS: String(WORKERS) } });
    await waitUntil(`every worker to load ${APIS} APIs`, () => loads(gateway).filter((l) => l.compiled === APIS).length >= WORKERS);
  });

  it('serves the changed API, the others as before, compiling only the changed one on each worker', async () => {
    expect(await upstreamPath(7)).toBe('/v1-7/x');
    write(7, api(7, '/v2'));
    const before = loads(gateway).length;
    await gateway.reload();
    expect(await upstreamPath(7)).toBe('/v2/x');
    for (const i of [0, 6, 8, APIS - 1]) expect(await upstreamPath(i)).toBe(`/v1-${i}/x`);
    await waitUntil('each worker to log its load', () => loads(gateway).length >= before + WORKERS);
    expect(loads(gateway).slice(before)).toEqual(Array.from({ length: WORKERS }, () => ({ compiled: 1, reused: APIS - 1 })));
  });

  it('compiles nothing when nothing changed', async () => {
    const before = loads(gateway).length;
    await gateway.reload();
    await waitUntil('each worker to log its load', () => loads(gateway).length >= before + WORKERS);
    expect(loads(gateway).slice(before)).toEqual(Array.from({ length: WORKERS }, () => ({ compiled: 0, reused: APIS })));
  });

  it('refuses an API whose new definition does not compile and keeps serving the others', async () => {
    write(3, { ...api(3), proxy: { listen_path: '/api-3', target_url: '' } });
    await gateway.reload();
    expect((await gateway.call('/api-3/x')).status).toBe(404);
    const report = (await gateway.admin('GET', '/gw/load-problems')).json<{ apis: number; problems: { id: string; reason: string }[] }>();
    expect(report.problems.map(({ id, reason }) => ({ id, reason }))).toEqual([{ id: 'api-3', reason: 'DefinitionNotServed' }]);
    expect(report.apis).toBe(APIS - 1);
    expect(await upstreamPath(4)).toBe('/v1-4/x');
    write(3, api(3));
    await gateway.reload();
    expect(await upstreamPath(3)).toBe('/v1-3/x');
  });
});
