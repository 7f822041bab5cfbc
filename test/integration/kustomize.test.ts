// config/ with the real kubectl: `kubectl kustomize config/default` renders the same objects as the chart's default
// `helm template` on a cluster with cert-manager (same kinds, namespaces, names, Deployment args and RBAC rules, and
// every other field once the labels each tool adds are set aside), plus the Namespace and the CRDs Helm handles
// itself; every base renders on its own; config/samples apply to a real apiserver and the invalid sample sits apart.
// kustomize cannot generate a certificate nor ask the cluster what it serves: config/default needs cert-manager
// (config/certmanager), where the chart falls back to a certificate of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { find, helmTemplate, identity, kustomize, manager, parseManifests, type KubeManifest } from '../support/chart.ts';
import { installCrds } from '../support/crds.ts';
import { kubectl, useNamespace } from '../support/kubectl.ts';

const SAMPLES = join(REPO_ROOT, 'config', 'samples');

/** The object without what each tool writes its own way: labels, and the selectors built from them. */
function comparable(object: KubeManifest): unknown {
  const copy = structuredClone(object) as KubeManifest & { spec?: { selector?: unknown; template?: { metadata?: { labels?: unknown } } } };
  delete copy.metadata.labels;
  if (copy.spec && typeof copy.spec === 'object') {
    delete copy.spec.selector;
    if (copy.spec.template?.metadata) delete copy.spec.template.metadata.labels;
  }
  return copy;
}

describe('config/ (kustomize)', () => {
  let chart: KubeManifest[];
  let kustomized: KubeManifest[];
  beforeAll(async () => {
    [{ objects: chart }, { objects: kustomized }] = await Promise.all([helmTemplate(['--api-versions', 'cert-manager.io/v1']), kustomize('default')]);
  });

  it("config/default renders the chart's default objects, plus the Namespace and the CRDs", () => {
    const extra = kustomized.filter((o) => o.kind === 'Namespace' || o.kind === 'CustomResourceDefinition');
    expect(extra.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['gw-operator-system']);
    expect(
      kustomized
        .filter((o) => !extra.includes(o))
        .map(identity)
        .sort(),
    ).toEqual(chart.map(identity).sort());
  });

  it('with the same Deployment args, env, ports, probes, volumes and security context', () => {
    expect(manager(kustomized).args).toEqual(manager(chart).args);
    expect(manager(kustomized).args).toContain('--webhook-port=9443');
    expect(manager(kustomized).image).toBe('gw:v1.0.0');
  });

  it('with the same RBAC rules', () => {
    for (const [kind, name] of [
      ['ClusterRole', 'gw-operator-manager-role'],
      ['ClusterRole', 'gw-operator-metrics-reader'],
      ['Role', 'gw-operator-leader-election-role'],
    ] as const) {
      expect(find(kustomized, kind, name).rules, name).toEqual(find(chart, kind, name).rules);
    }
  });

  it('and with every other field equal once labels and label selectors are set aside', () => {
    for (const object of chart) {
      const twin = kustomized.find((o) => identity(o) === identity(object));
      expect(twin && comparable(twin), identity(object)).toEqual(comparable(object));
    }
  });

  it('ships the CRDs of crds/ (config/crd/bases is a generated copy)', () => {
    const crds = kustomized.filter((o) => o.kind === 'CustomResourceDefinition');
    const files = readdirSync(join(REPO_ROOT, 'crds')).sort();
    expect(crds.map((o) => o.metadata.name).sort()).toEqual(
      files.map((f) => (parse(readFileSync(join(REPO_ROOT, 'crds', f), 'utf8')) as KubeManifest).metadata.name).sort(),
    );
    for (const file of files) {
      expect(readFileSync(join(REPO_ROOT, 'config', 'crd', 'bases', file)).equals(readFileSync(join(REPO_ROOT, 'crds', file))), file).toBe(true);
      const source = parse(readFileSync(join(REPO_ROOT, 'crds', file), 'utf8')) as KubeManifest;
      expect(comparable(find(crds, 'CustomResourceDefinition', source.metadata.name)), file).toEqual(comparable(source));
    }
  });

  it.each(['crd', 'rbac', 'manager', 'webhook', 'certmanager'])('config/%s renders on its own', async (base) => {
    const { objects } = await kustomize(base);
    expect(objects.length).toBeGreaterThan(0);
  });

  it('config/manager alone runs without webhooks (config/default adds them)', async () => {
    const { objects } = await kustomize('manager');
    expect(manager(objects).args).toContain('--webhook-port=0');
    expect(manager(objects).volumeMounts).toBeUndefined();
  });

  describe('config/samples', () => {
    const ns = useNamespace('samples');
    beforeAll(installCrds);

    it('apply to a real apiserver (server-side dry run): keyless, protected and TLS APIs, policy, OAS API, context, Ingress with its template', async () => {
      const result = await kubectl(['apply', '--dry-run=server', '-n', ns.name, '-f', SAMPLES], { allowFailure: true });
      expect(result.stderr).toBe('');
      expect(result.stdout.trim().split('\n').sort()).toEqual([
        'apidefinition.gw.gw.io/client-credentials-api created (server dry run)',
        'apidefinition.gw.gw.io/httpbin created (server dry run)',
        'apidefinition.gw.gw.io/httpbin-any-auth created (server dry run)',
        'apidefinition.gw.gw.io/httpbin-balanced created (server dry run)',
        'apidefinition.gw.gw.io/httpbin-basic-auth created (server dry run)',
        'apidefinition.gw.gw.io/httpbin-protected created (server dry run)',
        'apidefinition.gw.gw.io/httpbin-tls created (server dry run)',
        'apidefinition.gw.gw.io/httpbin-token-auth created (server dry run)',
        'apidefinition.gw.gw.io/redis-tcp created (server dry run)',
        'apidefinition.gw.gw.io/shop-template created (server dry run)',
        'configmap/orders-oas created (server dry run)',
        'configmap/orders-v2-oas created (server dry run)',
        'configmap/petstore-oas created (server dry run)',
        'gwoasapidefinition.gw.gw.io/orders created (server dry run)',
        'gwoasapidefinition.gw.gw.io/orders-v2 created (server dry run)',
        'gwoasapidefinition.gw.gw.io/petstore created (server dry run)',
        'ingress.networking.k8s.io/shop created (server dry run)',
        // Cluster-scoped: another suite of the same run may have applied the samples for real already.
        expect.stringMatching(/^ingressclass\.networking\.k8s\.io\/gw (created|unchanged) \(server dry run\)$/),
        'operatorcontext.gw.gw.io/staging created (server dry run)',
        'secret/staging-gateway-credentials created (server dry run)',
        'securitypolicy.gw.gw.io/client-credentials-policy created (server dry run)',
        'securitypolicy.gw.gw.io/httpbin-protected-gold created (server dry run)',
        'service/shop created (server dry run)',
      ]);
    });

    it('point at the documented local upstream, and the policy grants the protected API in its own namespace', () => {
      const objects = readdirSync(SAMPLES)
        .filter((f) => f.endsWith('.yaml'))
        .flatMap((f) => parseManifests(readFileSync(join(SAMPLES, f), 'utf8')));
      expect(find(objects, 'ApiDefinition', 'httpbin').spec).toMatchObject({
        use_keyless: true,
        proxy: { target_url: 'http://127.0.0.1:18080', listen_path: '/httpbin/' },
      });
      expect(find(objects, 'ApiDefinition', 'httpbin-protected').spec).toMatchObject({
        use_standard_auth: true,
        auth_configs: { authToken: { auth_header_name: 'Authorization' } },
      });
      expect(find(objects, 'SecurityPolicy').spec).toMatchObject({ access_rights_array: [{ name: 'httpbin-protected' }] });
      expect((find(objects, 'SecurityPolicy').spec as { access_rights_array: { namespace?: string }[] }).access_rights_array[0]?.namespace).toBeUndefined();
      const oas = JSON.parse(find<KubeManifest & { data: Record<string, string> }>(objects, 'ConfigMap', 'petstore-oas').data['oas.json']!) as Record<
        string,
        unknown
      >;
      expect(oas).toMatchObject({ openapi: '3.0.3', 'x-gw-api-gateway': { upstream: { url: 'http://127.0.0.1:18080' } } });
      for (const file of ['httpbin_protected.yaml', 'httpbin_protected_policy.yaml']) {
        // `gw up` (src/up/demo.ts) puts these two in its namespace by inserting one line under the first `metadata:`.
        expect(parseManifests(readFileSync(join(SAMPLES, file), 'utf8')), file).toHaveLength(1);
      }
    });

    it('keep the invalid ApiDefinition (keyless + standard auth) apart; it is well-formed for the schema', async () => {
      expect(readdirSync(SAMPLES).filter((f) => /invalid/.test(f) && f.endsWith('.yaml'))).toEqual([]);
      const result = await kubectl(['apply', '--dry-run=client', '-n', ns.name, '-f', join(SAMPLES, 'invalid')], { allowFailure: true });
      expect(result.stderr).toBe('');
      expect(result.stdout.trim()).toBe('apidefinition.gw.gw.io/httpbin-invalid created (dry run)');
      const [invalid] = parseManifests(readFileSync(join(SAMPLES, 'invalid', 'httpbin_invalid.yaml'), 'utf8'));
      expect(invalid?.spec).toMatchObject({ use_keyless: true, use_standard_auth: true });
    });
  });
});
