// kubeconfig resolution as kubectl does it: file order and merging, relative paths, every credential kind, the
// in-cluster service account, and clear refusals.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { KubeconfigError, loadClusterAccess } from './kubeconfig.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-kubeconfig-'));
let n = 0;
function file(doc: unknown, name = `config-${n++}`): string {
  const path = join(dir, name);
  writeFileSync(path, typeof doc === 'string' ? doc : stringify(doc));
  return path;
}
const config = (user: Record<string, unknown>, cluster: Record<string, unknown> = { server: 'https://k8s.example:6443/' }) => ({
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'main',
  contexts: [{ name: 'main', context: { cluster: 'c', user: 'u' } }],
  clusters: [{ name: 'c', cluster }],
  users: [{ name: 'u', user }],
});

describe('kubeconfig', () => {
  it('reads inline certificate data and the server', async () => {
    const access = loadClusterAccess({
      kubeconfig: file(
        config(
          { 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') },
          { server: 'https://k8s.example:6443/', 'certificate-authority-data': Buffer.from('CA').toString('base64'), 'tls-server-name': 'kubernetes' },
        ),
      ),
    });
    expect(access.server).toBe('https://k8s.example:6443');
    const credentials = await access.credentials();
    expect({
      ca: credentials.ca?.toString(),
      cert: credentials.cert?.toString(),
      key: credentials.key?.toString(),
      servername: credentials.servername,
      rejectUnauthorized: credentials.rejectUnauthorized,
    }).toEqual({ ca: 'CA', cert: 'CERT', key: 'KEY', servername: 'kubernetes', rejectUnauthorized: true });
  });

  it('resolves certificate and token file paths against the kubeconfig holding them, re-reading the token', async () => {
    const sub = join(dir, 'relative');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'ca.crt'), 'CA-FILE');
    writeFileSync(join(sub, 'token'), 'first\n');
    const access = loadClusterAccess({
      kubeconfig: file(
        config({ tokenFile: 'token' }, { server: 'https://a', 'certificate-authority': 'ca.crt', 'insecure-skip-tls-verify': true }),
        'relative/kubeconfig',
      ),
    });
    const first = await access.credentials();
    expect(first.ca?.toString()).toBe('CA-FILE');
    expect(first.rejectUnauthorized).toBe(false);
    expect(first.headers.authorization).toBe('Bearer first');
    writeFileSync(join(sub, 'token'), 'rotated\n');
    expect((await access.credentials()).headers.authorization).toBe('Bearer rotated');
  });

  it('sends basic auth for a username and password', async () => {
    const access = loadClusterAccess({ kubeconfig: file(config({ username: 'admin', password: 'pw' })) });
    expect((await access.credentials()).headers.authorization).toBe(`Basic ${Buffer.from('admin:pw').toString('base64')}`);
  });

  it('merges a KUBECONFIG list: the first file defining a name and the first current-context win', async () => {
    const first = file({ 'current-context': 'second-ctx', users: [{ name: 'u', user: { token: 'from-first' } }] });
    const second = file({
      'current-context': 'ignored',
      contexts: [{ name: 'second-ctx', context: { cluster: 'c', user: 'u' } }],
      clusters: [{ name: 'c', cluster: { server: 'https://merged' } }],
      users: [{ name: 'u', user: { token: 'from-second' } }],
    });
    const access = loadClusterAccess({ env: { KUBECONFIG: `${first}:${join(dir, 'missing')}:${second}` } });
    expect(access.server).toBe('https://merged');
    expect((await access.credentials()).headers.authorization).toBe('Bearer from-first');
  });

  it('runs an exec credential plugin and keeps its token until it expires', async () => {
    const counter = join(dir, 'exec-count');
    const plugin = file(
      `#!/bin/sh\necho x >> ${counter}\ntest "$KUBE_TEST_ENV" = set || exit 3\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-token","expirationTimestamp":"2999-01-01T00:00:00Z"}}'\n`,
      'plugin.sh',
    );
    chmodSync(plugin, 0o755);
    const access = loadClusterAccess({
      kubeconfig: file(
        config({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', env: [{ name: 'KUBE_TEST_ENV', value: 'set' }] } }),
      ),
    });
    expect((await access.credentials()).headers.authorization).toBe('Bearer exec-token');
    expect((await access.credentials()).headers.authorization).toBe('Bearer exec-token');
    expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('reports a failing exec plugin with its name', async () => {
    const access = loadClusterAccess({ kubeconfig: file(config({ exec: { command: '/bin/false' } })) });
    await expect(access.credentials()).rejects.toThrow('exec credential plugin /bin/false failed');
  });

  it('uses the in-cluster service account when nothing else is configured', async () => {
    const sa = join(dir, 'sa');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'ca.crt'), 'SA-CA');
    writeFileSync(join(sa, 'token'), 'sa-token');
    const access = loadClusterAccess({
      env: { HOME: join(dir, 'nohome'), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: sa,
    });
    expect(access.server).toBe('https://10.96.0.1:443');
    const credentials = await access.credentials();
    expect(credentials.ca?.toString()).toBe('SA-CA');
    expect(credentials.headers.authorization).toBe('Bearer sa-token');
  });

  it('refuses what it cannot honour, naming it', () => {
    expect(() => loadClusterAccess({ env: { HOME: join(dir, 'nohome') } })).toThrow(KubeconfigError);
    expect(() => loadClusterAccess({ kubeconfig: file(config({ 'auth-provider': { name: 'gcp' } })) })).toThrow(
      'auth-provider "gcp" is not supported; use an exec credential plugin',
    );
    expect(() => loadClusterAccess({ kubeconfig: file(config({}, { server: 'https://a', 'proxy-url': 'http://proxy' })) })).toThrow(
      'proxy-url is not supported',
    );
    expect(() => loadClusterAccess({ kubeconfig: file({ ...config({}), 'current-context': 'other' }) })).toThrow(
      'current-context "other" is not among its contexts',
    );
    expect(() => loadClusterAccess({ kubeconfig: join(dir, 'absent') })).toThrow('kubeconfig not found');
  });
});
