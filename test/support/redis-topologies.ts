// Real Redis topologies on loopback ports of this worker's range (Debian's redis-server, no persistence, in a
// temporary directory; stopped after the test file): a Redis Cluster of 3 masters (`--cluster-enabled yes`, created
// with `redis-cli --cluster create`), a Sentinel set (a master, a replica and 3 sentinels: `redis-server --sentinel`,
// the program Debian's redis-sentinel package runs) and a TLS server with an ACL user.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { freePorts } from '../../src/up/ports.ts';
import { createCertificateAuthority, issueServingCertificate } from './certificates.ts';
import { waitUntil } from './wait.ts';

const run = promisify(execFile);
const children = new Set<ChildProcess>();
const dirs = new Set<string>();
afterAll(async () => {
  await Promise.all([...children].map(stopChild));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stopChild(child: ChildProcess): Promise<void> {
  children.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveExit) => {
    child.once('exit', () => resolveExit());
    child.kill('SIGKILL');
  });
}

function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-redis-topology-'));
  dirs.add(dir);
  return dir;
}

/** `redis-cli -p <port> <args...>` (extra: TLS or auth options); its trimmed output. */
export async function redisCli(port: number, args: string[], extra: string[] = []): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...extra, ...args], { timeout: 10_000 });
  return stdout.trim();
}

/** Starts redis-server with these arguments and waits until it answers PING. */
async function startServer(port: number, args: string[], cli: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  children.add(child);
  await waitUntil(
    `redis-server on port ${port}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`redis-server ${args.join(' ')} exited at start (is Debian's redis-server installed?)`);
      return (await redisCli(port, ['ping'], cli).catch(() => '')) === 'PONG';
    },
    { timeoutMs: 30_000 },
  );
  return child;
}

const NO_PERSISTENCE = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];

export interface RunningCluster {
  /** "127.0.0.1:<port>" of each master. */
  addrs: string[];
  ports: number[];
}

/** Three masters sharing the 16 384 slots, no replicas; resolved when every node reports cluster_state:ok. */
export async function startRedisCluster(): Promise<RunningCluster> {
  const dir = scratchDir();
  const [a, b, c, ...bus] = await freePorts(6);
  const ports = [a!, b!, c!];
  await Promise.all(
    ports.map((port, i) =>
      startServer(port, [
        '--port',
        String(port),
        ...NO_PERSISTENCE,
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        // The bus port defaults to port + 10 000: outside this worker's range, so it is chosen like the others.
        '--cluster-port',
        String(bus[i]),
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '3000',
      ]),
    ),
  );
  const addrs = ports.map((port) => `127.0.0.1:${port}`);
  await run('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
  for (const port of ports) {
    await waitUntil(`cluster_state:ok on ${port}`, async () => (await redisCli(port, ['cluster', 'info'])).includes('cluster_state:ok'), { timeoutMs: 60_000 });
  }
  return { addrs, ports };
}

export interface RunningSentinels {
  masterName: string;
  sentinelPassword: string;
  /** "127.0.0.1:<port>" of each sentinel. */
  addrs: string[];
  sentinelPorts: number[];
  /** The data servers: the first starts as the master, the second as its replica. */
  serverPorts: [number, number];
  /** The port of the master the sentinels name now. */
  masterPort(): Promise<number>;
  /** SENTINEL FAILOVER: the replica is promoted, the master demoted (returns once a sentinel accepted it). */
  failover(): Promise<void>;
  /** Stops a data server answering (SIGSTOP): its connections stay open, as across a network partition. */
  freezeServer(port: number): void;
}

const MASTER_NAME = 'gwmaster';
const SENTINEL_PASSWORD = 'sentinel-secret';

/**
 * A master and its replica, both with `min-replicas-to-write 1` (a master without a connected replica, such as one
 * being demoted, refuses writes instead of acknowledging ones the failover will discard), and 3 sentinels with a
 * password (quorum 2). Resolved when the replica is in sync and every sentinel knows the replica and the others.
 */
export async function startRedisSentinels(): Promise<RunningSentinels> {
  const dir = scratchDir();
  const [master, replica, ...sentinelPorts] = await freePorts(5);
  const servers = new Map<number, ChildProcess>();
  const writeSafety = ['--min-replicas-to-write', '1', '--min-replicas-max-lag', '10'];
  servers.set(master!, await startServer(master!, ['--port', String(master), ...NO_PERSISTENCE, '--dir', dir, ...writeSafety]));
  servers.set(
    replica!,
    await startServer(replica!, ['--port', String(replica), ...NO_PERSISTENCE, '--dir', dir, ...writeSafety, '--replicaof', '127.0.0.1', String(master)]),
  );
  await waitUntil('the replica in sync', async () => (await redisCli(replica!, ['info', 'replication'])).includes('master_link_status:up'));
  const auth = ['--no-auth-warning', '-a', SENTINEL_PASSWORD];
  await Promise.all(
    sentinelPorts.map((port) => {
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `requirepass ${SENTINEL_PASSWORD}`,
          `sentinel sentinel-pass ${SENTINEL_PASSWORD}`,
          `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master} 2`,
          `sentinel down-after-milliseconds ${MASTER_NAME} 2000`,
          `sentinel failover-timeout ${MASTER_NAME} 10000`,
          '',
        ].join('\n'),
      );
      return startServer(port, [conf, '--sentinel'], auth);
    }),
  );
  for (const port of sentinelPorts) {
    await waitUntil(`sentinel ${port} knows the replica and the other sentinels`, async () => {
      const state = await redisCli(port, ['sentinel', 'master', MASTER_NAME], auth);
      return /num-slaves\n1\n/.test(state) && /num-other-sentinels\n2\n/.test(state);
    });
  }
  const masterPort = async (): Promise<number> =>
    Number((await redisCli(sentinelPorts[0]!, ['sentinel', 'get-master-addr-by-name', MASTER_NAME], auth)).split('\n')[1]);
  return {
    masterName: MASTER_NAME,
    sentinelPassword: SENTINEL_PASSWORD,
    addrs: sentinelPorts.map((port) => `127.0.0.1:${port}`),
    sentinelPorts,
    serverPorts: [master!, replica!],
    masterPort,
    failover: async () => {
      const answer = await redisCli(sentinelPorts[0]!, ['sentinel', 'failover', MASTER_NAME], auth);
      if (answer !== 'OK') throw new Error(`SENTINEL FAILOVER answered ${answer}`);
    },
    freezeServer: (port) => {
      servers.get(port)?.kill('SIGSTOP');
    },
  };
}

export interface RunningTlsRedis {
  port: number;
  /** The CA of the server's certificate, the client certificate it requires and its key: PEM files. */
  caFile: string;
  certFile: string;
  keyFile: string;
  /** A CA that signed nothing this server trusts or presents. */
  otherCaFile: string;
  username: string;
  password: string;
}

/**
 * A server reachable only over TLS (a certificate for IP 127.0.0.1 from a test CA; clients must present one from it
 * too), whose default user is off: one ACL user, limited to keys under `keyPattern`.
 */
export async function startTlsRedisWithAclUser(keyPattern: string): Promise<RunningTlsRedis> {
  const dir = scratchDir();
  const file = (name: string): string => join(dir, name);
  const ca = createCertificateAuthority({ commonName: 'redis test CA' });
  const server = issueServingCertificate(ca, { commonName: 'redis', ipAddresses: ['127.0.0.1'] });
  const pems: Record<string, string> = {
    'ca.pem': ca.certPem,
    'ca.key': ca.keyPem,
    'other-ca.pem': createCertificateAuthority({ commonName: 'another CA' }).certPem,
    'server.pem': server.certPem,
    'server.key': server.keyPem,
    'client.ext': 'extendedKeyUsage=clientAuth\n',
  };
  for (const [name, text] of Object.entries(pems)) writeFileSync(file(name), text, { mode: 0o600 });
  // A client certificate (extendedKeyUsage clientAuth, which the serving-certificate generator does not make).
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run('openssl', ['req', ...ec, '-keyout', file('client.key'), '-out', file('client.csr'), '-subj', '/CN=client']);
  await run('openssl', [
    'x509',
    '-req',
    '-days',
    '2',
    '-in',
    file('client.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-extfile',
    file('client.ext'),
    '-out',
    file('client.pem'),
  ]);
  const [port] = await freePorts(1);
  const username = 'gw-gateway';
  const password = 'acl-user-secret';
  const tls = ['--tls-cert-file', file('server.pem'), '--tls-key-file', file('server.key'), '--tls-ca-cert-file', file('ca.pem')];
  const cli = [
    '--tls',
    '--cacert',
    file('ca.pem'),
    '--cert',
    file('client.pem'),
    '--key',
    file('client.key'),
    '--user',
    username,
    '--pass',
    password,
    '--no-auth-warning',
  ];
  await startServer(
    port!,
    [
      '--port',
      '0',
      '--tls-port',
      String(port),
      ...tls,
      '--tls-auth-clients',
      'yes',
      ...NO_PERSISTENCE,
      '--dir',
      dir,
      '--user',
      'default',
      'off',
      '--user',
      username,
      'on',
      `>${password}`,
      `~${keyPattern}`,
      '&*',
      '+@all',
    ],
    cli,
  );
  return {
    port: port!,
    caFile: file('ca.pem'),
    certFile: file('client.pem'),
    keyFile: file('client.key'),
    otherCaFile: file('other-ca.pem'),
    username,
    password,
  };
}
