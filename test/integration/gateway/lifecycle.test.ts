// The gateway process: it refuses to start unprotected, reloads without a single failed request under load, and
// drains requests in flight on SIGTERM, answering change-feed long polls (the operator's watch) at once.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { classicApi, startGateway } from '../../support/gateway.ts';
import { runGw } from '../../support/cli.ts';
import { startUpstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';

describe('gateway process', () => {
  it('refuses to start without a secret, with one line naming the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-nosecret-'));
    writeFileSync(join(dir, 'gw.json'), JSON.stringify({ listen_port: 0 }));
    const result = await runGw(['gateway', '--config', join(dir, 'gw.json')], { GW_GATEWAY_SECRET: undefined });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('secret: secret is required: the management API (header x-gw-authorization) must be protected');
  });

  it('prints its configuration reference', async () => {
    const child = spawn(join(REPO_ROOT, 'bin', 'gw'), ['gateway', '--config-reference'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolveExit) => child.on('exit', resolveExit));
    expect(out).toContain('storage.type\n  env: GW_GATEWAY_STORAGE_TYPE\n  default: "embedded"');
  });

  it('never fails a request while reloading again and again under load', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ log_level: 'warn', listen_address: '127.0.0.1' });
    await gw.admin('POST', '/gw/apis', classicApi('steady', '/steady', upstream.url, { use_keyless: true }));
    await gw.reload();
    let running = true;
    const statuses = new Map<number, number>();
    const client = async (): Promise<void> => {
      while (running) {
        const status = (await gw.call('/steady/x')).status;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: 8 }, client);
    for (let i = 0; i < 30; i++) {
      await gw.admin('POST', '/gw/apis', classicApi(`churn-${i}`, `/churn-${i}`, upstream.url, { use_keyless: true }));
      if (i > 0) await gw.admin('DELETE', `/gw/apis/churn-${i - 1}`);
      await gw.reload();
    }
    running = false;
    await Promise.all(clients);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(100);
  });

  it('warns about configuration keys it does not know', async () => {
    const gw = await startGateway({ listen_prot: 1 });
    // Logged once the service has started, so it may reach the output just after the gateway answers ready.
    await waitUntil('the unknown-key warning', () => gw.output().includes('unknown configuration keys ignored: listen_prot'));
  });

  it('lets requests in flight finish on SIGTERM, then exits 0', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway();
    await gw.admin('POST', '/gw/apis', classicApi('slow', '/slow', upstream.url, { use_keyless: true }));
    await gw.reload();
    // SIGTERM only once the request has reached the upstream, which holds it for 3 s: it is in flight for sure.
    let answered = false;
    const inFlight = gw.call('/slow/delay/3000').finally(() => (answered = true));
    await waitUntil('the request to reach the upstream', () => upstream.requests.some((r) => r.url === '/delay/3000'));
    const exit = gw.stop('SIGTERM');
    expect(answered).toBe(false);
    expect((await inFlight).status).toBe(200);
    expect(await exit).toBe(0);
  });

  it('answers the change-feed long polls waiting on SIGTERM at once, with the unchanged version, then exits 0', async () => {
    const gw = await startGateway();
    // The feed holds at most 64 waiters (change-feed.ts): of 65 polls one is refused 503 at once, and only once the
    // other 64 are waiting.
    const polls = Array.from({ length: 65 }, (_, index) => gw.admin('GET', '/gw/changes?since=0&timeout=60').then((answer) => ({ answer, index })));
    const refused = await Promise.race(polls);
    expect(refused.answer.status).toBe(503);
    const waiting = polls.filter((_, index) => index !== refused.index);
    const exit = gw.stop('SIGTERM');
    const answers = (await Promise.all(waiting)).map(({ answer }) => answer);
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 64 }, () => 200));
    expect(answers.every((answer) => answer.json<{ version: number }>().version === 0)).toBe(true);
    expect(await exit).toBe(0);
  });
});
