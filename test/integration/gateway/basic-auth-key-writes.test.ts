// Basic-auth keys written through the management API on a real gateway process: their password is hashed by the
// gateway's bcrypt worker pool (basic_auth_checks.hash_workers / hash_queue), never on the event loop, so a burst of
// key writes beyond the pool is refused with 503 naming the settings (nothing stored), and a key the pool hashed
// authenticates with its password.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const keyOf = (user: string) => ({ basic_auth_data: { password: `${user}-password` }, access_rights: { basic: { api_id: 'basic', versions: [] } } });

describe('basic-auth key writes hash in the bcrypt worker pool', () => {
  let upstream: Upstream;
  let gw: RunningGateway;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ basic_auth_checks: { hash_workers: 1, hash_queue: 0 } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('basic', '/basic', upstream.url, { use_basic_auth: true }))).status).toBe(200);
    await gw.reload();
  });

  it('one worker, no queue: concurrent key writes beyond it get 503 and store nothing; the others authenticate', async () => {
    const users = Array.from({ length: 12 }, (_, i) => `user${i}`);
    const answers = await Promise.all(users.map((user) => gw.admin('POST', `/gw/keys/${user}`, keyOf(user))));
    const refused = users.filter((_, i) => answers[i]!.status === 503);
    const created = users.filter((_, i) => answers[i]!.status === 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(created.length + refused.length).toBe(users.length);
    expect(answers.find((answer) => answer.status === 503)?.json()).toEqual({
      status: 'error',
      message: expect.stringContaining('basic_auth_checks.hash_workers') as string,
    });

    for (const user of refused) expect((await gw.admin('GET', `/gw/keys/${user}`)).status).toBe(404);
    const [first] = created;
    expect((await gw.call('/basic/x', { headers: basic(first!, `${first!}-password`) })).status).toBe(200);
    expect((await gw.admin('GET', `/gw/keys/${first!}`)).json()).toMatchObject({ basic_auth_data: { password: '', hash_type: 'bcrypt' } });
  });

  it('an update with a new password is hashed in the pool and replaces the old one', async () => {
    expect((await gw.admin('POST', '/gw/keys/carol', keyOf('carol'))).status).toBe(200);
    expect((await gw.admin('PUT', '/gw/keys/carol', { ...keyOf('carol'), basic_auth_data: { password: 'new-password' } })).status).toBe(200);
    expect((await gw.call('/basic/x', { headers: basic('carol', 'new-password') })).status).toBe(200);
    expect((await gw.call('/basic/x', { headers: basic('carol', 'carol-password') })).status).toBe(401);
  });
});
