// The admission webhooks end to end: our webhook server (HTTPS, certificate from src/kube/certs.ts in a directory laid
// out like a mounted Secret) registered with the real kube-apiserver through Mutating/ValidatingWebhookConfigurations,
// and the real kubectl applying objects. Each test gets its own configurations, selecting only its own namespace
// (kubernetes.io/metadata.name), so the suite's other files running in parallel never meet these webhooks.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:tls';
import { pino } from 'pino';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate, type CertificateAuthority } from '../../../src/kube/certs.ts';
import { webhookConfigurations } from '../../../src/operator/webhooks/configurations.ts';
import { startWebhookServer, type WebhookServer } from '../../../src/operator/webhooks/server.ts';
import { writeCertDir } from '../../support/certs.ts';
import { installCrds } from '../../support/crds.ts';
import { kubectl, useNamespace, type CommandResult } from '../../support/kubectl.ts';
import { get, manifest } from '../../support/resources.ts';

const KEYLESS_WITH_AUTH = { name: 'both', use_keyless: true, use_standard_auth: true, proxy: { listen_path: '/both', target_url: 'http://127.0.0.1:9' } };
const DENIED_KEYLESS = 'spec.use_keyless: Forbidden: a keyless API cannot also use standard auth (spec.use_standard_auth)';

describe('admission webhooks on the real apiserver', () => {
  const ns = useNamespace('wh');
  let dir: string;
  let server: WebhookServer;
  let configName: string;

  beforeAll(installCrds);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-webhook-certs-'));
    const ca = createCertificateAuthority({ commonName: 'gw webhook test CA' });
    writeCertDir(dir, serving(ca));
    server = await startWebhookServer({ host: '127.0.0.1', port: 0, certDir: dir, log: pino({ level: 'silent' }) });
    configName = `gw-test-${ns.name}`;
    await register(ca);
    await untilWebhooksAnswer();
  });

  afterEach(async () => {
    await kubectl(['delete', 'mutatingwebhookconfiguration,validatingwebhookconfiguration', configName, '--ignore-not-found'], { allowFailure: true });
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function serving(ca: CertificateAuthority): { certPem: string; keyPem: string } {
    return issueServingCertificate(ca, { commonName: 'gw-webhook', ipAddresses: ['127.0.0.1'] });
  }

  /** Creates (or updates: a new caBundle) this test's two webhook configurations. */
  async function register(ca: CertificateAuthority): Promise<void> {
    const { mutating, validating } = webhookConfigurations({
      name: configName,
      endpoint: { url: `https://127.0.0.1:${server.port}` },
      caPem: ca.certPem,
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns.name } },
      timeoutSeconds: 5,
    });
    await kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [mutating, validating] }) });
  }

  function applyObject(kind: string, name: string, spec: Record<string, unknown>, ...flags: string[]): Promise<CommandResult> {
    return kubectl(['apply', '-n', ns.name, ...flags, '-f', '-'], { input: JSON.stringify(manifest(kind, name, spec)), allowFailure: true });
  }

  /** Retries `attempt` until it returns true: configuration changes reach the apiserver's webhook clients after a moment. */
  async function until(what: string, attempt: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await attempt())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await sleep(200);
    }
  }

  /** Both webhooks answer: the validating one refuses (dry run), the mutating one defaults (dry run). */
  async function untilWebhooksAnswer(): Promise<void> {
    await until('the validating webhook refuses a keyless API with standard auth', async () => {
      const result = await applyObject('ApiDefinition', 'probe', KEYLESS_WITH_AUTH, '--dry-run=server');
      return result.code !== 0 && result.stderr.includes(DENIED_KEYLESS);
    });
    await until('the mutating webhook defaults version_data', async () => {
      const result = await applyObject('ApiDefinition', 'probe', { ...KEYLESS_WITH_AUTH, use_keyless: false }, '--dry-run=server', '-o', 'json');
      return result.code === 0 && (JSON.parse(result.stdout) as { spec: Record<string, unknown> }).spec.version_data !== undefined;
    });
  }

  /** SHA-256 fingerprint of the certificate the server presents to a new connection. */
  function presented(): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: server.port, rejectUnauthorized: false }, () => {
        resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
        socket.end();
      });
      socket.on('error', reject);
    });
  }

  it('kubectl apply of a keyless API that also asks for standard auth fails, naming spec.use_keyless', async () => {
    const result = await applyObject('ApiDefinition', 'both', KEYLESS_WITH_AUTH);
    expect(result.code).not.toBe(0);
    // The webhook answers 422 Invalid with one cause per field; kubectl prints it as it prints the apiserver's own.
    expect(result.stderr).toContain(`The ApiDefinition "both" is invalid: ${DENIED_KEYLESS}`);
    expect(await get('apidefinition', ns.name, 'both')).toBeUndefined();
  });

  it('defaults a standard-auth API: auth_configs.authToken with the Authorization header, one unversioned Default version', async () => {
    const spec = { name: 'orders', use_standard_auth: true, proxy: { listen_path: '/orders', target_url: 'orders.shop.svc:8080' } };
    const result = await applyObject('ApiDefinition', 'orders', spec);
    expect(result.stderr).toBe('');
    const stored = await get('apidefinition', ns.name, 'orders');
    expect(stored?.spec).toEqual({
      ...spec,
      auth_configs: { authToken: { auth_header_name: 'Authorization' } },
      version_data: { not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default', use_extended_paths: true } } },
    });
    // Applying the same manifest again changes nothing: the defaults stay, the webhooks have nothing more to say.
    const again = await applyObject('ApiDefinition', 'orders', spec);
    expect(again.stdout).toContain('unchanged');
    expect((await get('apidefinition', ns.name, 'orders'))?.metadata.generation).toBe(1);
  });

  it('refuses SecurityPolicies with a bad quota, state or access list, naming the field', async () => {
    const quota = await applyObject('SecurityPolicy', 'quota', { name: 'Quota', quota_max: 1000 });
    expect(quota.code).not.toBe(0);
    expect(quota.stderr).toContain('The SecurityPolicy "quota" is invalid: spec.quota_renewal_rate: Required value: the quota period in seconds');

    // The CRD schema refuses these before any webhook is asked; the field is named all the same.
    const zero = await applyObject('SecurityPolicy', 'zero', { name: 'Zero', quota_max: 0 });
    expect(zero.stderr).toContain('spec.quota_max');
    const state = await applyObject('SecurityPolicy', 'state', { name: 'State', state: 'paused' });
    expect(state.stderr).toMatch(/spec\.state: Unsupported value: "paused": supported values: "active", "draft", "deny"/);

    const twice = await applyObject('SecurityPolicy', 'twice', {
      name: 'Twice',
      access_rights_array: [{ name: 'orders' }, { name: 'orders', namespace: ns.name }],
    });
    expect(twice.stderr).toContain('spec.access_rights_array[1]: Duplicate value');
    for (const name of ['quota', 'zero', 'state', 'twice']) expect(await get('securitypolicy', ns.name, name)).toBeUndefined();
  });

  it('refuses a GwStreamsApiDefinition naming a certificate Secret (certificates by id only), naming the field', async () => {
    const gwStreams = { configmapRef: { name: 'events', keyName: 'streams.json' } };
    const refused = await applyObject('GwStreamsApiDefinition', 'events', {
      gwStreams,
      mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'up.example.com', certificateRef: 'up-client' }] },
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'The GwStreamsApiDefinition "events" is invalid: spec.mutualTLS.domainToCertificateMapping[0].certificateRef: Forbidden: a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in certificateID',
    );
    expect(await get('gwstreamsapidefinition', ns.name, 'events')).toBeUndefined();
    const admitted = await applyObject('GwStreamsApiDefinition', 'events', {
      gwStreams,
      mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'up.example.com', certificateID: 'org1abc' }] },
    });
    expect([admitted.code, admitted.stderr]).toEqual([0, '']);
  });

  it('admits a policy whose throttling cannot work, and kubectl prints our warning', async () => {
    const result = await applyObject('SecurityPolicy', 'throttled', { name: 'Throttled', rate: 10, per: 1, throttle_interval: 0, throttle_retry_limit: 3 });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Warning: spec.throttle_interval: throttling disabled: throttle_interval is 0');
    expect(await get('securitypolicy', ns.name, 'throttled')).toBeDefined();
  });

  it('admits valid objects, and gives a legacy inactive policy the state it meant', async () => {
    const api = await applyObject('ApiDefinition', 'open', {
      name: 'open',
      use_keyless: true,
      proxy: { listen_path: '/open', target_url: 'http://127.0.0.1:9' },
    });
    expect([api.code, api.stderr]).toEqual([0, '']);
    const policy = await applyObject('SecurityPolicy', 'gold', {
      name: 'Gold',
      active: false,
      rate: 100,
      per: 60,
      quota_max: -1,
      access_rights_array: [{ name: 'open' }],
    });
    expect([policy.code, policy.stderr]).toEqual([0, '']);
    expect((await get('securitypolicy', ns.name, 'gold'))?.spec).toMatchObject({ state: 'draft', active: false });
    // An update that leaves the spec alone is never refused (labels, finalizers); one that breaks it is.
    expect((await kubectl(['label', '-n', ns.name, 'apidefinition', 'open', 'team=a'], { allowFailure: true })).code).toBe(0);
    const broken = await applyObject('ApiDefinition', 'open', {
      name: 'open',
      use_keyless: true,
      proxy: { listen_path: 'open', target_url: 'http://127.0.0.1:9' },
    });
    expect(broken.stderr).toContain(`spec.proxy.listen_path: Invalid value: "open": must start with '/'`);
  });

  it('keeps answering across a certificate rotation: new files in the directory, new caBundle in the configurations', async () => {
    const next = createCertificateAuthority({ commonName: 'gw webhook test CA 2' });
    const pair = serving(next);
    writeCertDir(dir, pair);
    const expected = new X509Certificate(pair.certPem).fingerprint256;
    await until('the server presents the new certificate', async () => (await presented()) === expected, 10_000);

    await register(next); // only the new CA is trusted from now on
    await untilWebhooksAnswer();
    const refused = await applyObject('ApiDefinition', 'both', KEYLESS_WITH_AUTH);
    expect(refused.stderr).toContain(DENIED_KEYLESS);
    const admitted = await applyObject('ApiDefinition', 'fine', {
      name: 'fine',
      use_standard_auth: true,
      proxy: { listen_path: '/fine', target_url: 'http://127.0.0.1:9' },
    });
    expect([admitted.code, admitted.stderr]).toEqual([0, '']);
    expect((await get('apidefinition', ns.name, 'fine'))?.spec?.auth_configs).toEqual({ authToken: { auth_header_name: 'Authorization' } });
  });
});
