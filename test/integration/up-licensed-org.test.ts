// `gw up --licensed` creates its organisation operator-managed (issue 28 item 4), as the README advises for an
// organisation the operator syncs into: on the real dashboard it starts, the printed human's access key reads but
// cannot create an API (403 naming the operator), while the operator's system user can.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLicensedDashboard, type LicensedDashboard } from '../../src/up/licensed.ts';
import { freePort } from '../../src/up/ports.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gw-up-licensed-org-'));
let dashboard: LicensedDashboard;

beforeAll(async () => {
  dashboard = await startLicensedDashboard({ stateDir: scratch, logFile: join(scratch, 'dashboard.log'), port: await freePort() });
});
afterAll(async () => {
  await dashboard?.child.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function call(key: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: { Message?: string } }> {
  const response = await request(`${dashboard.url}${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.statusCode, json: (await response.body.json()) as { Message?: string } };
}

const definition = (name: string) => ({
  name,
  active: true,
  use_keyless: true,
  proxy: { listen_path: `/${name}/`, target_url: 'http://127.0.0.1:9/', strip_listen_path: true },
});

describe('gw up --licensed organisation', () => {
  it('is operator-managed: the human user reads, only the operator system user writes APIs', async () => {
    expect((await call(dashboard.userKey, 'GET', '/api/apis')).status).toBe(200);
    const human = await call(dashboard.userKey, 'POST', '/api/apis', definition('by-hand'));
    expect(human.status).toBe(403);
    expect(human.json.Message).toMatch(/^API definitions of this organisation are managed by the operator; /);
    expect((await call(dashboard.operatorKey, 'POST', '/api/apis', definition('by-operator'))).status).toBe(200);
  });
});
