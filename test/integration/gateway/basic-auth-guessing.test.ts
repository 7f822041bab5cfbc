// Guessing basic-auth passwords against a real gateway process: bcrypt runs in worker threads, so a keyless API on
// the same gateway keeps answering quickly while dozens of wrong guesses are checked; a full pool queue answers 503;
// an unknown user costs a bcrypt check like a wrong password (the dummy hash); repeating a wrong guess costs none
// (the failure cache); and failures lock the user out (429 with Retry-After), even for the right password.
import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

async function gatewayWithBasicAuth(upstream: Upstream, checks: Record<string, unknown>): Promise<RunningGateway> {
  const gw = await startGateway({ basic_auth_checks: checks });
  for (const api of [classicApi('open', '/open', upstream.url, { use_keyless: true }), classicApi('basic', '/basic', upstream.url, { use_basic_auth: true })]) {
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
  }
  await gw.reload();
  for (const user of ['alice', 'bob']) {
    const created = await gw.admin('POST', `/gw/keys/${user}`, {
      basic_auth_data: { password: `${user}-password` },
      access_rights: { basic: { api_id: 'basic', versions: [] } },
    });
    expect(created.status).toBe(200);
  }
  return gw;
}

describe('basic-auth password guessing', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });

  it('a keyless API on the same gateway answers within 100 ms (median) while 30 wrong guesses are checked', async () => {
    const gw = await gatewayWithBasicAuth(upstream, { max_failures_per_user: 1000, max_failures_per_client: 1000 });
    expect((await gw.call('/open/warm')).status).toBe(200);
    let guessesDone = false;
    const guesses = Promise.all(
      Array.from({ length: 30 }, (_, i) => gw.call('/basic/x', { headers: basic('alice', `wrong-${i}`) }).then((r) => r.status)),
    ).finally(() => {
      guessesDone = true;
    });
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      expect((await gw.call('/open/x')).status).toBe(200);
      latencies.push(performance.now() - started);
      expect(guessesDone, 'the guesses were still being checked').toBe(false);
    }
    expect(await guesses).toEqual(Array.from({ length: 30 }, () => 401)); // within the default queue (1 worker + 32 waiting)
    // Each answer came while guesses were still being checked (above); before, the first keyless answer came only
    // after all 30 guesses (bcrypt on the event loop, 0.13-0.35 s each). The median must be under 100 ms. Single
    // answers may exceed it on an oversubscribed machine - the first comes while the gateway accepts the 30 guesses'
    // connections, and an idle gateway's keyless answers reached 275 ms at load average 20 on 2 cores - but none
    // comes near what one bcrypt check on the event loop costs a queue of 30.
    const sorted = [...latencies].sort((x, y) => x - y);
    const shown = latencies.map((ms) => ms.toFixed(1)).join(' ');
    expect(sorted[2], shown).toBeLessThan(100);
    expect(sorted[4], shown).toBeLessThan(1000);
  });

  it('locks a user out after 5 failures: 429 with Retry-After even for the right password; other users are not', async () => {
    const gw = await gatewayWithBasicAuth(upstream, {});
    for (let i = 0; i < 5; i++) expect((await gw.call('/basic/x', { headers: basic('alice', `wrong-${i}`) })).status).toBe(401);
    const locked = await gw.call('/basic/x', { headers: basic('alice', 'alice-password') });
    expect({ status: locked.status, text: locked.text, retryAfter: locked.headers['retry-after'] }).toEqual({
      status: 429,
      text: errorBody('Too many failed authentication attempts: try again later'),
      retryAfter: '300',
    });
    expect((await gw.call('/basic/x', { headers: basic('bob', 'bob-password') })).status).toBe(200);
  });

  it('one worker, no queue: concurrent guesses beyond it get 503; unknown users take a worker too; a repeated wrong guess does not', async () => {
    const gw = await gatewayWithBasicAuth(upstream, { hash_workers: 1, hash_queue: 0, max_failures_per_user: 1000, max_failures_per_client: 1000 });
    const burst = async (user: string, password: (i: number) => string) => {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => gw.call('/basic/x', { headers: basic(user, password(i)) })));
      return answers;
    };
    const unknown = await burst('nobody', (i) => `guess-${i}`);
    const busy = unknown.find((answer) => answer.status === 503);
    expect(busy?.text).toBe(errorBody('Too many password checks at once: try again shortly'));
    expect(busy?.headers['retry-after']).toBe('1');
    expect(unknown.every((answer) => answer.status === 401 || answer.status === 503)).toBe(true);
    expect((await gw.call('/basic/x', { headers: basic('alice', 'same-wrong') })).status).toBe(401);
    expect((await burst('alice', () => 'same-wrong')).map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 401));
  });
});
