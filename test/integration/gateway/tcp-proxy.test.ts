// TCP and TLS proxying (issue 27 item 6) through a real gateway process to a real redis-server, driven by the real
// redis-cli and by node sockets: protocol tcp piping PING/SET/GET, protocol tls terminating TLS with an uploaded
// certificate chosen by SNI, a tls:// upstream reached through a verified handshake, an IP block list closing the
// connection on accept, a reload keeping an open connection
// of an unchanged API and closing the listener of a removed one, and the ports_whitelist and shared-port refusals
// as load problems naming the API. One gateway and one redis-server for every case.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/up/ports.ts';
import { createCertificateAuthority, issueServingCertificate } from '../../support/certificates.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';

const run = promisify(execFile);
const ca = createCertificateAuthority({ commonName: 'gw tcp test CA' });
const caDir = mkdtempSync(join(tmpdir(), 'gw-tcp-ca-'));
const caFile = join(caDir, 'ca.pem');
writeFileSync(caFile, ca.certPem);
afterAll(() => rmSync(caDir, { recursive: true, force: true }));

async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 20_000 });
  return stdout.trim();
}

/** A socket speaking RESP by hand: `command` sends one inline command and answers the reply line. */
async function openClient(port: number): Promise<{ socket: Socket; command(line: string): Promise<string>; closed: Promise<void> }> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolveConnect, reject) => socket.once('connect', resolveConnect).once('error', reject));
  const closed = new Promise<void>((resolveClose) => socket.once('close', () => resolveClose()));
  socket.on('error', () => undefined);
  return {
    socket,
    closed,
    command: (line) =>
      new Promise<string>((resolveReply, reject) => {
        socket.once('data', (data) => resolveReply(data.toString().trim()));
        socket.once('close', () => reject(new Error('closed before a reply')));
        socket.write(`${line}\r\n`);
      }),
  };
}

function tcpApi(id: string, port: number, target: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: id, api_id: id, active: true, protocol: 'tcp', listen_port: port, proxy: { target_url: target }, ...extra };
}

describe('gateway TCP and TLS proxying', () => {
  let gw: RunningGateway;
  let redis: RunningRedis;
  const ports: Record<'tcp' | 'tls' | 'blocked' | 'moved' | 'closed' | 'refused' | 'upstreamTls', number> = {
    tcp: 0,
    tls: 0,
    blocked: 0,
    moved: 0,
    closed: 0,
    refused: 0,
    upstreamTls: 0,
  };

  const put = async (api: Record<string, unknown>): Promise<void> => {
    const exists = (await gw.admin('GET', `/gw/apis/${String(api.api_id)}`)).status === 200;
    const result = await gw.admin(exists ? 'PUT' : 'POST', exists ? `/gw/apis/${String(api.api_id)}` : '/gw/apis', api);
    expect(result.status, result.text).toBe(200);
    await gw.reload();
  };
  const problems = async (): Promise<{ id?: string; reason?: string; message: string; conflicts_with?: string }[]> =>
    (await gw.admin('GET', '/gw/load-problems')).json<{ problems: { id?: string; reason?: string; message: string }[] }>().problems;

  beforeAll(async () => {
    redis = await startRedis();
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    const { refused: _notListed, tls, ...tcp } = ports;
    // The gateway trusts the test CA for tls:// upstreams, as a user's gateway trusts theirs.
    gw = await startGateway(
      { ports_whitelist: { tcp: { ports: Object.values(tcp) }, tls: { ranges: [{ from: tls, to: tls }] } } },
      { env: { NODE_EXTRA_CA_CERTS: caFile } },
    );
  });

  it('pipes redis-cli PING, SET and GET through a tcp API (Tyk Operator redis-tcp sample: no auth fields)', async () => {
    await put(tcpApi('redis-tcp', ports.tcp, `tcp://127.0.0.1:${redis.port}`));
    expect(await redisCli(ports.tcp, 'PING')).toBe('PONG');
    expect(await redisCli(ports.tcp, 'SET', 'greeting', 'through gw')).toBe('OK');
    expect(await redisCli(redis.port, 'GET', 'greeting')).toBe('through gw');
    expect(await redisCli(ports.tcp, 'GET', 'greeting')).toBe('through gw');
  });

  it('terminates TLS with the certificate of the SNI name and pipes plaintext to redis (redis-cli --tls)', async () => {
    const leaf = issueServingCertificate(ca, { commonName: 'redis.test', dnsNames: ['redis.test'] });
    const uploaded = await gw.admin('POST', '/gw/certs', `${leaf.certPem}${leaf.keyPem}`, { 'content-type': 'text/plain' });
    expect(uploaded.status).toBe(200);
    const certId = uploaded.json<{ id: string }>().id;
    await put(tcpApi('redis-tls', ports.tls, `127.0.0.1:${redis.port}`, { protocol: 'tls', domain: 'redis.test', certificates: [certId] }));
    expect(await redisCli(ports.tls, '--tls', '--sni', 'redis.test', '--cacert', caFile, 'PING')).toBe('PONG');
    // The handshake is verified against the test CA: a name the certificate does not carry fails it.
    await expect(redisCli(ports.tls, '--tls', '--sni', 'other.test', '--cacert', caFile, 'PING')).rejects.toThrow();
  });

  it('pipes to a tls:// upstream through a verified handshake', async () => {
    const leaf = issueServingCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'] });
    const echo = createTlsServer({ cert: leaf.certPem, key: leaf.keyPem }, (socket) => socket.pipe(socket));
    await new Promise<void>((resolveListen) => echo.listen(0, '127.0.0.1', resolveListen));
    try {
      await put(tcpApi('echo-tls', ports.upstreamTls, `tls://127.0.0.1:${(echo.address() as AddressInfo).port}`));
      const client = await openClient(ports.upstreamTls);
      expect(await client.command('over tls')).toBe('over tls');
      client.socket.destroy();
    } finally {
      echo.close();
    }
  });

  it('closes a connection from a blocked address on accept, before any byte reaches redis', async () => {
    await put(tcpApi('redis-blocked', ports.blocked, `tcp://127.0.0.1:${redis.port}`, { blacklisted_ips: ['127.0.0.0/8'] }));
    const client = await openClient(ports.blocked);
    await client.closed;
    expect(client.socket.bytesRead).toBe(0);
    // The same API without the block list serves the same client.
    await put(tcpApi('redis-blocked', ports.blocked, `tcp://127.0.0.1:${redis.port}`, { blacklisted_ips: [] }));
    expect(await redisCli(ports.blocked, 'PING')).toBe('PONG');
  });

  it('keeps an open connection of an unchanged API across a reload; closes the listener of a removed API', async () => {
    await put(tcpApi('redis-kept', ports.closed, `tcp://127.0.0.1:${redis.port}`));
    const client = await openClient(ports.closed);
    expect(await client.command('PING')).toBe('+PONG');
    await put(tcpApi('redis-other', ports.moved, `tcp://127.0.0.1:${redis.port}`));
    expect(await client.command('ECHO still-open')).toBe('$10\r\nstill-open');

    expect((await gw.admin('DELETE', '/gw/apis/redis-kept')).status).toBe(200);
    await gw.reload();
    await client.closed;
    await expect(redisCli(ports.closed, 'PING')).rejects.toThrow(/refused/i);
  });

  it('moves a changed listen_port: the old port closes, the new one serves', async () => {
    const from = ports.moved;
    await put(tcpApi('redis-other', ports.closed, `tcp://127.0.0.1:${redis.port}`));
    expect(await redisCli(ports.closed, 'PING')).toBe('PONG');
    await expect(redisCli(from, 'PING')).rejects.toThrow(/refused/i);
  });

  it('refuses a port outside ports_whitelist and a second tcp API on a taken port, naming the API', async () => {
    await put(tcpApi('redis-not-listed', ports.refused, `tcp://127.0.0.1:${redis.port}`));
    await put(tcpApi('redis-second', ports.tcp, `tcp://127.0.0.1:${redis.port}`));
    const found = await problems();
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'redis-not-listed',
          reason: 'ListenPortNotOpened',
          message: expect.stringContaining(`tcp:${ports.refused} trying to open disabled port`) as string,
        }),
        expect.objectContaining({ id: 'redis-second', reason: 'ListenPortConflict', conflicts_with: 'redis-tcp' }),
      ]),
    );
    await expect(redisCli(ports.refused, 'PING')).rejects.toThrow(/refused/i);
    expect(await redisCli(ports.tcp, 'PING')).toBe('PONG');
  });

  it('refuses authentication settings on a tcp API by name', async () => {
    const result = await gw.admin('POST', '/gw/apis', tcpApi('redis-auth', ports.refused, `tcp://127.0.0.1:${redis.port}`, { use_basic_auth: true }));
    expect(result.status).toBe(400);
    expect(result.text).toContain('use_basic_auth');
  });
});
