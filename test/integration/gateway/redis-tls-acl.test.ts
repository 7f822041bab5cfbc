// Redis over TLS with an ACL user (storage.use_ssl, ca_file, cert_file/key_file, username/password): a real
// redis-server that only speaks TLS and requires a client certificate, whose only user may touch `tls:*` keys. The
// gateway completes the handshake on loopback and limits through it; a server certificate from a CA it does not
// trust, or a wrong password, stops it at start with where it looked and why (never the password).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { runGw } from '../../support/cli.ts';
import { startTlsRedisWithAclUser, type RunningTlsRedis } from '../../support/redis-topologies.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('a gateway on Redis over TLS with an ACL user', () => {
  let redis: RunningTlsRedis;
  let upstream: Upstream;
  let gateway: RunningGateway;
  const storage = (overrides: Record<string, unknown> = {}) => ({
    type: 'redis',
    port: redis.port,
    key_prefix: 'tls:',
    use_ssl: true,
    ca_file: redis.caFile,
    cert_file: redis.certFile,
    key_file: redis.keyFile,
    username: redis.username,
    password: redis.password,
    ...overrides,
  });
  beforeAll(async () => {
    [redis, upstream] = await Promise.all([startTlsRedisWithAclUser('tls:*'), startUpstream()]);
    gateway = await startGateway({ storage: storage() });
  });

  it('keeps APIs, keys and an exact rate limit in it', async () => {
    expect((await gateway.admin('POST', '/gw/apis', classicApi('api', '/api', upstream.url))).status).toBe(200);
    await gateway.reload();
    const token = await addKey(gateway, ['api'], { rate: 3, per: 60 });
    const statuses = await Promise.all(Array.from({ length: 6 }, () => gateway.call('/api/x', { headers: { authorization: token } }).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 200, 200, 429, 429, 429]);
  });

  async function startFails(overrides: Record<string, unknown>): Promise<string> {
    const file = join(gateway.dir, `failing-${Object.keys(overrides).join('-')}.json`);
    writeFileSync(file, JSON.stringify({ listen_address: '127.0.0.1', listen_port: 0, secret: 's', storage: storage(overrides) }));
    const result = await runGw(['gateway', '--config', file]);
    expect(result.code).not.toBe(0);
    return result.stderr + result.stdout;
  }

  it('refuses to start when the server certificate is not from ca_file, or the password is wrong, naming the server', async () => {
    const untrusted = await startFails({ ca_file: redis.otherCaFile });
    expect(untrusted).toContain(`cannot reach Redis at 127.0.0.1:${redis.port} over TLS`);
    expect(untrusted).toMatch(/certificate/i);
    const wrongPassword = await startFails({ password: 'not-the-password' });
    expect(wrongPassword).toMatch(/WRONGPASS/);
    expect(wrongPassword).not.toContain('not-the-password');
  });
});
