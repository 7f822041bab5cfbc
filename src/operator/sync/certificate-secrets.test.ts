// The operator's certificate Secrets, as a unit: the Secret from the cache or (not cached) from the apiserver, the
// checks and their messages (never key material), one upload per Secret version and gateway, and resolve()'s
// errors (missing: waiting, SecretNotFound; unusable: invalid, InvalidSecret).
import { describe, expect, it } from 'vitest';
import { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import { KubeApiError } from '../../kube/errors.ts';
import { MgmtError, type ManagementClient } from '../../mgmt/client.ts';
import { CertificateSecrets } from './certificate-secrets.ts';
import { InvalidSpecError, WaitingError } from './errors.ts';
import type { GatewayHandle } from './gateways.ts';
import type { SecretObject } from '../cluster/resources.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nsecret-key-bytes\n-----END PRIVATE KEY-----';

function secret(
  name: string,
  resourceVersion: string,
  type = 'kubernetes.io/tls',
  data: Record<string, string> = { 'tls.crt': b64(CERT), 'tls.key': b64(KEY) },
): SecretObject {
  return { apiVersion: 'v1', kind: 'Secret', type, metadata: { name, namespace: 'ns', resourceVersion }, data };
}

function setup(options: { cached?: SecretObject[]; apiserver?: SecretObject[]; refuse?: boolean } = {}) {
  const cache = new Cache<SecretObject>();
  for (const s of options.cached ?? []) cache.upsert(s);
  const kube = {
    get: async (_resource: unknown, namespace: string, name: string) => {
      const found = (options.apiserver ?? []).find((s) => s.metadata.namespace === namespace && s.metadata.name === name);
      if (!found) throw new KubeApiError(404, 'NotFound', `secrets "${name}" not found`);
      return found;
    },
  } as unknown as KubeClient;
  const uploads: string[] = [];
  const client = {
    uploadCertificate: async (pem: string, org: string) => {
      if (options.refuse) throw new MgmtError('invalid', 'Request malformed: the key does not belong to the certificate', 400);
      uploads.push(pem);
      return `${org}fingerprint${uploads.length}`;
    },
  } as unknown as ManagementClient;
  const gateway = { key: 'gw-1', env: { org: 'org' }, client } as unknown as GatewayHandle;
  return { secrets: new CertificateSecrets(cache, kube), cache, uploads, gateway };
}

describe('CertificateSecrets', () => {
  it('uploads tls.crt with tls.key once per Secret version and gateway, and answers the id the service gave', async () => {
    const { secrets, cache, uploads, gateway } = setup({ cached: [secret('site', '1')] });
    expect(await secrets.certificateOf('ns', 'site', gateway)).toEqual({ id: 'orgfingerprint1' });
    expect(await secrets.certificateOf('ns', 'site', gateway)).toEqual({ id: 'orgfingerprint1' });
    expect(uploads).toEqual([`${CERT}\n${KEY}`]);
    cache.upsert(secret('site', '2')); // rotated
    expect(await secrets.certificateOf('ns', 'site', gateway)).toEqual({ id: 'orgfingerprint2' });
    expect(uploads).toHaveLength(2);
  });

  it('reads a Secret the cache does not hold from the apiserver: another type, or missing', async () => {
    const { secrets, gateway } = setup({ apiserver: [secret('opaque', '1', 'Opaque')] });
    expect(await secrets.certificateOf('ns', 'opaque', gateway)).toEqual({
      problem: 'Secret ns/opaque is of type Opaque, not kubernetes.io/tls',
      missing: false,
    });
    expect(await secrets.certificateOf('ns', 'gone', gateway)).toEqual({ problem: 'Secret ns/gone does not exist', missing: true });
  });

  it('names a missing tls.crt or tls.key, and a refused certificate, without any key material', async () => {
    const { secrets, gateway } = setup({
      cached: [
        secret('no-key', '1', 'kubernetes.io/tls', { 'tls.crt': b64(CERT), 'tls.key': '' }),
        secret('no-crt', '1', 'kubernetes.io/tls', { 'tls.key': b64(KEY) }),
      ],
    });
    expect(await secrets.certificateOf('ns', 'no-key', gateway)).toEqual({ problem: 'Secret ns/no-key has no tls.key', missing: false });
    expect(await secrets.certificateOf('ns', 'no-crt', gateway)).toEqual({ problem: 'Secret ns/no-crt has no tls.crt', missing: false });
    const refused = setup({ cached: [secret('bad', '1')], refuse: true });
    const answer = await refused.secrets.certificateOf('ns', 'bad', refused.gateway);
    expect(answer).toEqual({
      problem: 'the certificate of Secret ns/bad was refused: Request malformed: the key does not belong to the certificate',
      missing: false,
    });
    expect(JSON.stringify(answer)).not.toContain('secret-key-bytes');
  });

  it('resolve(): every named Secret by name; a missing one waits (SecretNotFound), an unusable one is invalid (InvalidSecret), each naming the field', async () => {
    const { secrets, gateway } = setup({ cached: [secret('a', '1'), secret('b', '1')], apiserver: [secret('opaque', '1', 'Opaque')] });
    const ids = await secrets.resolve(
      'ns',
      [
        { name: 'a', field: 'spec.x[0]' },
        { name: 'b', field: 'spec.y[0]' },
        { name: 'a', field: 'spec.z[h]' },
      ],
      gateway,
    );
    expect([...ids]).toEqual([
      ['a', 'orgfingerprint1'],
      ['b', 'orgfingerprint2'],
    ]);
    const missing = secrets.resolve('ns', [{ name: 'gone', field: 'spec.certificate_secret_names[0]' }], gateway);
    await expect(missing).rejects.toThrow(new WaitingError('spec.certificate_secret_names[0]: Secret ns/gone does not exist', 'SecretNotFound'));
    await expect(missing).rejects.toMatchObject({ reason: 'SecretNotFound' });
    const opaque = secrets.resolve('ns', [{ name: 'opaque', field: 'spec.client_certificate_refs[0]' }], gateway);
    await expect(opaque).rejects.toThrow(InvalidSpecError);
    await expect(opaque).rejects.toMatchObject({
      reason: 'InvalidSecret',
      message: 'spec.client_certificate_refs[0]: Secret ns/opaque is of type Opaque, not kubernetes.io/tls',
    });
  });
});
