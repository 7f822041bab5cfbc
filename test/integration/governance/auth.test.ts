// Who may use the governance API, on PostgreSQL and on embedded PGlite: the X-API-Key header, the bootstrap admin
// (admin_token), tokens issued by an admin over the API or by `gw governance token create` straight into the
// database, members who read but may not write, revocation, and the refusal to start a hub nobody could administer.
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectStatus, hubConfig, runGovernance, startHub } from './hub-process.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

describe.each(ENGINES)('governance API authentication on %s', (engine) => {
  const databases = useDatabases(engine);

  it('answers 401 without a key or with an unknown one, and serves the bootstrap admin', async () => {
    const hub = await startHub(databases.config());
    expect(await hub.call('GET', '/api/labels').then((r) => [r.status, r.json()])).toEqual([401, { status: 'error', message: 'X-API-Key header missing' }]);
    expect(await hub.call('GET', '/api/labels', { key: 'not-a-token' }).then((r) => [r.status, r.json()])).toEqual([
      401,
      { status: 'error', message: 'invalid API key' },
    ]);
    expect(await hub.call('GET', '/api/labels', { key: `${ADMIN_TOKEN}x` }).then((r) => r.status)).toBe(401);
    expect((await hub.call('POST', '/api/labels', { body: { name: 'Owner' } })).status).toBe(401);
    expectStatus(await hub.admin('GET', '/api/labels'), 200);
    expect(expectStatus(await hub.call('GET', '/health'), 200)).toEqual({ status: 'pass', database: engine });
    expect(hub.output()).not.toContain(ADMIN_TOKEN);
  });

  it('lets an admin issue tokens: members read but may not write; tokens are listed without secrets and can be revoked', async () => {
    const hub = await startHub(databases.config());
    const member = expectStatus<{ id: string; name: string; role: string; token: string }>(
      await hub.admin('POST', '/api/tokens', { name: 'catalogue reader', role: 'member' }),
      200,
    );
    expect(Object.keys(member).sort()).toEqual(['id', 'name', 'role', 'token']);
    expect(member).toMatchObject({ name: 'catalogue reader', role: 'member' });
    expect(member.token).toMatch(/^gwg_[A-Za-z0-9_-]{43}$/);
    const admin = expectStatus<{ id: string; token: string }>(await hub.admin('POST', '/api/tokens', { name: 'ci', role: 'admin' }), 200);

    // A member reads labels and APIs...
    expectStatus(await hub.call('GET', '/api/labels', { key: member.token }), 200);
    expectStatus(await hub.call('GET', '/api/apis', { key: member.token }), 200);
    expectStatus(await hub.call('GET', '/api/payments/labels', { key: member.token }), 200);
    // ...and every write is refused, naming what only admins may do.
    const refusals: [Dispatcher.HttpMethod, string, unknown, string][] = [
      ['POST', '/api/labels/', { name: 'Owner' }, 'only admins may create labels'],
      ['PUT', '/api/labels/api_criticality', { name: 'API Criticality' }, 'only admins may change labels'],
      ['DELETE', '/api/labels/api_criticality', undefined, 'only admins may delete labels'],
      ['PUT', '/api/payments/labels', { labels: { 'API Criticality': 'Tier 1' } }, 'only admins may apply labels'],
      ['PATCH', '/api/payments/labels', { labels: { 'API Criticality': 'Tier 1' } }, 'only admins may apply labels'],
      ['POST', '/api/tokens', { name: 'me too', role: 'admin' }, 'only admins may manage tokens'],
      ['GET', '/api/tokens', undefined, 'only admins may manage tokens'],
    ];
    for (const [method, path, body, message] of refusals) {
      const result = await hub.call(method, path, { key: member.token, body });
      expect([method, path, result.status, result.json()]).toEqual([method, path, 403, { status: 'error', message }]);
    }

    // An issued admin token writes.
    expectStatus(await hub.call('POST', '/api/labels', { key: admin.token, body: { name: 'Owner' } }), 200);

    // Listing shows no secret, neither in clear nor hashed.
    const listed = expectStatus<{ tokens: Record<string, unknown>[] }>(await hub.admin('GET', '/api/tokens'), 200);
    expect(listed.tokens.map((t) => [t.name, t.role])).toEqual([
      ['catalogue reader', 'member'],
      ['ci', 'admin'],
    ]);
    for (const token of listed.tokens) expect(Object.keys(token).sort()).toEqual(['created_at', 'id', 'name', 'role']);
    expect(JSON.stringify(listed)).not.toContain(member.token);

    // Revoked: refused at once.
    expect(expectStatus(await hub.admin('DELETE', `/api/tokens/${member.id}`), 200)).toEqual({ status: 'ok', message: 'token "catalogue reader" revoked' });
    expect((await hub.call('GET', '/api/labels', { key: member.token })).json()).toEqual({ status: 'error', message: 'invalid API key' });
    expect((await hub.admin('DELETE', `/api/tokens/${member.id}`)).status).toBe(404);
    expect(expectStatus(await hub.admin('POST', '/api/tokens', { name: 'x', role: 'owner' }), 400)).toEqual({
      status: 'error',
      message: 'role: must be admin or member',
    });
    expect(hub.output()).not.toContain(admin.token);
  });

  it('refuses to start without admin_token while the database holds no admin token, naming the key', async () => {
    const { configFile } = await hubConfig({ ...databases.config(), admin_token: null });
    const result = await runGovernance(['--config', configFile]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^gw governance: admin_token is required while the database holds no admin token/);
  });

  it('issues an admin token from the command line into the database; the hub then starts without admin_token', async () => {
    const database_url = databases.url();
    const { configFile } = await hubConfig({ database_url, admin_token: null });
    const issued = await runGovernance(['token', 'create', '--name', 'first admin', '--role', 'admin', '--config', configFile]);
    expect(issued.code).toBe(0);
    const token = issued.stdout.trim();
    expect(token).toMatch(/^gwg_[A-Za-z0-9_-]{43}$/);
    expect(issued.stderr).toMatch(/issued admin token "first admin"/);
    expect(issued.stderr).not.toContain(token);

    const hub = await startHub({ database_url, admin_token: null });
    expect(expectStatus(await hub.call('POST', '/api/labels/', { key: token, body: { name: 'Owner' } }), 200)).toMatchObject({ name: 'Owner' });
    expect((await hub.call('GET', '/api/labels', { key: ADMIN_TOKEN })).status).toBe(401); // no bootstrap admin configured

    const { code, stderr } = await hub.command(['token', 'create', '--name', 'x', '--role', 'root']);
    expect([code, stderr]).toEqual([2, 'gw governance token create: --role: must be admin or member\n']);
  });

  it('the command-line token works at once on PostgreSQL; on PGlite it waits for the hub to stop (one process per directory)', async () => {
    const hub = await startHub(databases.config());
    const whileRunning = await hub.command(['token', 'create', '--name', 'ops', '--role', 'member']);
    if (engine === 'pglite') {
      expect(whileRunning.code).toBe(1);
      expect(whileRunning.stderr).toMatch(/is in use by process \d+ .*stop it first, or issue the token through POST \/api\/tokens/);
      await hub.stop();
      const stopped = await hub.command(['token', 'create', '--name', 'ops', '--role', 'member']);
      expect(stopped.code).toBe(0);
      await hub.restart();
      expectStatus(await hub.call('GET', '/api/labels', { key: stopped.stdout.trim() }), 200);
    } else {
      expect(whileRunning.code).toBe(0);
      const key = whileRunning.stdout.trim();
      expectStatus(await hub.call('GET', '/api/labels', { key }), 200);
      expect((await hub.call('POST', '/api/labels', { key, body: { name: 'Owner' } })).status).toBe(403);
    }
    const listed = expectStatus<{ tokens: { name: string; role: string }[] }>(await hub.admin('GET', '/api/tokens'), 200);
    expect(listed.tokens.map((t) => [t.name, t.role])).toEqual([['ops', 'member']]);
  });
});
