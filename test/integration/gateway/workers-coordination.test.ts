// One gateway on 4 worker threads behaves as one gateway: a blocking reload answers once every worker serves the
// new table, a key deleted through one worker is refused by all, the change feed has one version and epoch
// whichever worker answers, and a metrics scrape counts every worker's requests once. Requests go out 200 at once,
// on as many connections, which the kernel spreads over the workers (SO_REUSEPORT).
import { beforeAll, describe, expect, it } from 'vitest';
import { addApi, addKey, classicApi, startGateway, type HttpResult, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

const CLIENTS = 200;

async function many(call: () => Promise<HttpResult>): Promise<HttpResult[]> {
  return Promise.all(Array.from({ length: CLIENTS }, call));
}

function statuses(results: HttpResult[]): Set<number> {
  return new Set(results.map((r) => r.status));
}

describe('4 workers, one gateway', () => {
  let gateway: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGateway({}, { env: { GW_GATEWAY_WORKERS: '4' } });
    expect((await gateway.admin('POST', '/gw/apis', classicApi('keyed', '/keyed', upstream.url))).status).toBe(200);
    await addApi(gateway, classicApi('open', '/open', upstream.url, { use_keyless: true }));
    await waitUntil('the gateway to say it runs 4 workers', () => gateway.output().includes('"workers":4'));
  });

  it('answers /gw/reload?block=true once every worker serves the new API', async () => {
    expect((await gateway.admin('POST', '/gw/apis', classicApi('fresh', '/fresh', upstream.url))).status).toBe(200);
    expect(statuses(await many(() => gateway.call('/fresh/x')))).toEqual(new Set([404]));
    await gateway.reload();
    expect(statuses(await many(() => gateway.call('/fresh/x')))).toEqual(new Set([401]));
  });

  it('refuses a key deleted through one worker on every worker at once (no session cached elsewhere)', async () => {
    const key = await addKey(gateway, ['keyed']);
    const call = (): Promise<HttpResult> => gateway.call('/keyed/x', { headers: { authorization: key } });
    expect(statuses(await many(call))).toEqual(new Set([200]));
    expect((await gateway.admin('DELETE', `/gw/keys/${key}`)).status).toBe(200);
    expect(statuses(await many(call))).toEqual(new Set([403]));
  });

  it('serves one change feed: the same version and epoch from every worker, and a write through one answers waiters on all', async () => {
    const cursors = await many(() => gateway.admin('GET', '/gw/changes?timeout=0'));
    const seen = new Set(cursors.map((r) => r.text));
    expect(seen.size).toBe(1);
    const { version, epoch } = cursors[0]!.json<{ version: number; epoch: string }>();
    const waiting = Array.from({ length: 40 }, () => gateway.admin('GET', `/gw/changes?since=${version}&epoch=${epoch}&timeout=30`));
    expect((await gateway.admin('POST', '/gw/apis', classicApi('third', '/third', upstream.url))).status).toBe(200);
    const answered = await Promise.all(waiting);
    for (const answer of answered) expect(answer.json()).toEqual({ version: version + 1, epoch });
  });

  it("counts every worker's requests once in a metrics scrape", async () => {
    expect(statuses(await many(() => gateway.call('/open/x')))).toEqual(new Set([200]));
    const count = (text: string): number => Number(/gw_requests_total\{api_id="open",code="200"\} (\d+)/.exec(text)?.[1] ?? 0);
    await waitUntil('200 requests counted', async () => count((await gateway.call('/metrics')).text) === CLIENTS);
    expect((await gateway.call('/metrics')).text).toMatch(/^gw_apis_loaded 3$/m);
  });
});
