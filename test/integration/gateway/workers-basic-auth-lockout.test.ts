// The basic-auth lock-out on a gateway of 4 worker threads counts every worker's failures together (the primary
// keeps the counters): 3 wrong passwords, wherever they land, lock the user out on every worker, the right password
// too (429), while another user is served. Requests go out each on its own connection, which the kernel spreads
// over the workers (SO_REUSEPORT); the 200 checks after the lock-out reach every worker.
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream } from '../../support/upstream.ts';

const CLIENTS = 200;
const basic = (user: string, password: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe('basic-auth lock-out on 4 workers', () => {
  let gw: RunningGateway;
  const status = async (headers: Record<string, string>): Promise<number> => {
    const response = await request(`${gw.url}/basic/x`, { headers, reset: true });
    await response.body.dump();
    return response.statusCode;
  };

  beforeAll(async () => {
    const upstream = await startUpstream();
    gw = await startGateway({ basic_auth_checks: { max_failures_per_user: 3, max_failures_per_client: 1000 } }, { env: { GW_GATEWAY_WORKERS: '4' } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('basic', '/basic', upstream.url, { use_basic_auth: true }))).status).toBe(200);
    await gw.reload();
    for (const user of ['alice', 'bob']) {
      const created = await gw.admin('POST', `/gw/keys/${user}`, {
        basic_auth_data: { password: `${user}-password` },
        access_rights: { basic: { api_id: 'basic', versions: [] } },
      });
      expect(created.status).toBe(200);
    }
  });

  it('3 failures lock the user out on every worker, not 3 per worker', async () => {
    for (let i = 0; i < 3; i++) expect(await status(basic('alice', `wrong-${i}`))).toBe(401);
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => status(basic('alice', 'alice-password'))));
    expect(new Set(answers)).toEqual(new Set([429]));
    expect(await status(basic('bob', 'bob-password'))).toBe(200);
  });
});
