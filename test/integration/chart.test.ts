// charts/gw-operator with the real helm: `helm template` of every switch compared with a golden file in
// testdata/chart/<case>.yaml, plus an assertion per switch showing what it does; `helm lint --strict`; the chart's
// crds/ equal to crds/ byte for byte; the NOTES; the default objects accepted by a real apiserver, and a default
// `helm install` on that apiserver, which has no cert-manager.
//
// The webhook certificate's source depends on the cluster: `helm template` has none, so it renders the certificate
// the chart generates (random: the golden files hold placeholders for it, see maskGenerated) unless given
// --api-versions cert-manager.io/v1, which renders the cert-manager path (case "cert-manager").
//
// Golden files: after an intended change of the chart, rewrite them with
//   UPDATE_GOLDEN=1 npm run -s test:integration -- test/integration/chart.test.ts
// and review the diff of test/integration/testdata/chart/ like code. A missing golden file fails.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';
import {
  CHART_DIR,
  find,
  helmTemplate,
  helmTemplateNotes,
  identity,
  manager,
  parseManifests,
  RELEASE,
  RELEASE_NAMESPACE,
  type Deployment,
  type KubeManifest,
  type WebhookConfiguration,
} from '../support/chart.ts';
import { expectGolden } from '../support/golden.ts';
import { kubectl, runTool, useNamespace } from '../support/kubectl.ts';

const GOLDEN_DIR = join(REPO_ROOT, 'test', 'integration', 'testdata', 'chart');
const CA_BUNDLE = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'gw.test.crt')).toString('base64');

/** Every switch the golden files pin: case name -> `helm template` arguments. */
const WITH_CERT_MANAGER = ['--api-versions', 'cert-manager.io/v1'];
const cases: Record<string, string[]> = {
  default: [],
  'cert-manager': WITH_CERT_MANAGER,
  'operator-disabled': ['--set', 'global.components.operator=false'],
  'webhooks-disabled': ['--set', 'webhooks.enabled=false'],
  'manual-tls': ['--set', 'webhooks.tls.useCertManager=false', '--set', `webhooks.tls.caBundle=${CA_BUNDLE}`],
  'webhook-url': [
    '--set',
    'webhooks.url=https://127.0.0.1:9443',
    '--set',
    'webhooks.annotations.example\\.com/owner=platform',
    '--set',
    'webhooks.namespaceSelector.matchLabels.gw\\.io/managed=true',
  ],
  'deprecated-webhook-port': ['--set', 'webhookPort=9555'],
  'webhooks-port': ['--set', 'webhooks.port=9666', '--set', 'webhookPort=9555'],
  'service-monitor': ['--set', 'serviceMonitor=true'],
  observability: ['--set', 'grafanaDashboard.enabled=true', '--set', 'prometheusRule.enabled=true', '--set', 'prometheusRule.labels.release=prometheus'],
  'ingress-class': ['--set', 'ingressClass.create=true', '--set', 'ingressClass.name=gw-edge', '--set', 'ingressClass.default=true'],
  scheduling: [
    '--set',
    'replicaCount=2',
    '--set',
    'hostNetwork=true',
    '--set',
    'nodeSelector.kubernetes\\.io/os=linux',
    '--set',
    'podAnnotations.prometheus\\.io/scrape=false',
    '--set-json',
    'extraVolumes=[{"name":"plugins","configMap":{"name":"gw-plugins"}}]',
    '--set-json',
    'extraVolumeMounts=[{"name":"plugins","mountPath":"/opt/gw/plugins","readOnly":true}]',
    '--set-json',
    'imagePullSecrets=[{"name":"regcred"}]',
    '--set-json',
    'resources={"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"memory":"256Mi"}}',
  ],
  license: ['--set', 'global.license.operator=abc'],
  'license-secret': ['--set', 'global.license.operator=abc', '--set', 'global.secrets.useSecretName=lic'],
  'fullname-override': ['--set', 'fullnameOverride=acme-operator', ...WITH_CERT_MANAGER],
};

const render = (name: string) => helmTemplate(cases[name]);

const golden = (name: string, args: string[], output: string): string =>
  `# Golden output of: helm template ${RELEASE} charts/gw-operator -n ${RELEASE_NAMESPACE}${args.length ? ` ${args.map((a) => (/[\s"{[]/.test(a) ? `'${a}'` : a)).join(' ')}` : ''}\n` +
  `# Rewrite with UPDATE_GOLDEN=1 npm run -s test:integration -- test/integration/chart.test.ts (see that file).\n${output}`;

/**
 * The output with the chart-generated certificate replaced by placeholders (it is new on every render): the CA
 * wherever it appears (ca.crt and every caBundle), the serving certificate and its key.
 */
function maskGenerated(text: string): string {
  const value = (field: string) => new RegExp(`^  ${field.replace('.', '\\.')}: (\\S+)$`, 'm').exec(text)?.[1];
  let masked = text;
  for (const [field, placeholder] of [
    ['ca.crt', '<generated CA>'],
    ['tls.crt', '<generated certificate>'],
    ['tls.key', '<generated key>'],
  ] as const) {
    const generated = value(field);
    if (generated) masked = masked.replaceAll(generated, placeholder);
  }
  return masked;
}

interface TlsSecret extends KubeManifest {
  type: string;
  data: Record<string, string>;
}

const pem = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/** The NOTES printed by `helm install --dry-run=client` (helm asks the test cluster which APIs it serves). */
async function installNotes(args: string[]): Promise<string> {
  const { stdout } = await runTool('helm', ['install', '--dry-run=client', RELEASE, CHART_DIR, '-n', RELEASE_NAMESPACE, ...args]);
  return stdout.slice(stdout.indexOf('NOTES:'));
}

const env = (objects: KubeManifest[], name: string) => manager(objects).env?.find((e) => e.name === name);
const arg = (objects: KubeManifest[], flag: string) => manager(objects).args.find((a) => a.startsWith(`${flag}=`) || a === flag);

describe('charts/gw-operator', () => {
  it.each(Object.keys(cases))('renders %s as its golden file', async (name) => {
    const args = cases[name]!;
    const { text } = await helmTemplate(args);
    expectGolden(join(GOLDEN_DIR, `${name}.yaml`), golden(name, args, maskGenerated(text)));
  });

  it('has a golden file for every case and no other', () => {
    expect(readdirSync(GOLDEN_DIR).sort()).toEqual(
      Object.keys(cases)
        .map((name) => `${name}.yaml`)
        .sort(),
    );
  });

  it('installs by default: SA, RBAC, Services, Deployment, webhooks with a generated certificate, all in the release namespace', async () => {
    const { objects } = await render('default');
    expect(objects.map(identity).sort()).toEqual([
      'ClusterRole gw-operator-manager-role',
      'ClusterRole gw-operator-metrics-reader',
      'ClusterRoleBinding gw-operator-manager-rolebinding',
      'Deployment gw-operator-system/gw-operator-controller-manager',
      'MutatingWebhookConfiguration gw-operator-mutating-webhook-configuration',
      'Role gw-operator-system/gw-operator-leader-election-role',
      'RoleBinding gw-operator-system/gw-operator-leader-election-rolebinding',
      'Secret gw-operator-system/webhook-server-cert',
      'Service gw-operator-system/gw-operator-controller-manager-metrics-service',
      'Service gw-operator-system/gw-operator-webhook-service',
      'ServiceAccount gw-operator-system/gw-operator-controller-manager',
      'ValidatingWebhookConfiguration gw-operator-validating-webhook-configuration',
    ]);
    for (const object of objects) {
      expect(object.metadata.labels, identity(object)).toMatchObject({
        'app.kubernetes.io/name': 'gw-operator',
        'app.kubernetes.io/instance': 'gw-operator',
        'app.kubernetes.io/version': 'v1.0.0',
        'app.kubernetes.io/managed-by': 'Helm',
        'helm.sh/chart': 'gw-operator-1.0.0',
      });
    }
    const deployment = find<Deployment>(objects, 'Deployment');
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.template.metadata.labels['control-plane']).toBe('controller-manager');
    expect(deployment.spec.template.spec.securityContext).toEqual({ runAsNonRoot: true });
    const container = manager(objects);
    expect(container.image).toBe('gw:v1.0.0');
    expect(container.args).toEqual([
      'operator',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=127.0.0.1:8080',
      '--secure-metrics-bind-address=:8443',
      '--leader-elect',
      '--webhook-port=9443',
      '--webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs',
    ]);
    expect(container.env).toEqual([
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'GW_HTTPS_INGRESS_PORT', value: '8443' },
      { name: 'GW_HTTP_INGRESS_PORT', value: '8080' },
    ]); // no license variable: the envFrom secret's GW_OPERATOR_LICENSEKEY applies
    expect(container.envFrom).toEqual([{ secretRef: { name: 'gw-operator-conf' } }]);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.volumeMounts).toEqual([{ name: 'cert', mountPath: '/tmp/k8s-webhook-server/serving-certs', readOnly: true }]);
    expect(deployment.spec.template.spec.volumes).toEqual([{ name: 'cert', secret: { secretName: 'webhook-server-cert', defaultMode: 420 } }]);
    const webhooks = find<WebhookConfiguration>(objects, 'ValidatingWebhookConfiguration');
    expect(webhooks.metadata.annotations).toBeUndefined(); // no cert-manager to inject a CA
    expect(webhooks.webhooks.map((w) => [w.name, w.clientConfig.service?.path, w.rules[0]?.resources])).toEqual([
      ['vapidefinition.gw.gw.io', '/validate-gw-gw-io-v1alpha1-apidefinition', ['apidefinitions']],
      ['vsecuritypolicy.gw.gw.io', '/validate-gw-gw-io-v1alpha1-securitypolicy', ['securitypolicies']],
      ['vgwstreamsapidefinition.gw.gw.io', '/validate-gw-gw-io-v1alpha1-gwstreamsapidefinition', ['gwstreamsapidefinitions']],
    ]);
    expect(find<WebhookConfiguration>(objects, 'MutatingWebhookConfiguration').webhooks.map((w) => [w.name, w.clientConfig.service])).toEqual([
      ['mapidefinition.gw.gw.io', { name: 'gw-operator-webhook-service', namespace: 'gw-operator-system', path: '/mutate-gw-gw-io-v1alpha1-apidefinition' }],
      ['msecuritypolicy.gw.gw.io', { name: 'gw-operator-webhook-service', namespace: 'gw-operator-system', path: '/mutate-gw-gw-io-v1alpha1-securitypolicy' }],
    ]);
  });

  it('without cert-manager generates ONE CA and serving certificate: in the mounted secret and as every caBundle', async () => {
    const { objects } = await render('default');
    const secret = find<TlsSecret>(objects, 'Secret', 'webhook-server-cert');
    expect(secret.type).toBe('kubernetes.io/tls');
    expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    const ca = new X509Certificate(pem(secret.data['ca.crt']!));
    const serving = new X509Certificate(pem(secret.data['tls.crt']!));
    expect(ca.ca).toBe(true);
    expect(serving.checkIssued(ca) && serving.verify(ca.publicKey)).toBe(true);
    expect(serving.checkPrivateKey(createPrivateKey(pem(secret.data['tls.key']!)))).toBe(true);
    expect(serving.checkHost('gw-operator-webhook-service.gw-operator-system.svc')).toBe('gw-operator-webhook-service.gw-operator-system.svc');
    expect(serving.checkHost('gw-operator-webhook-service.gw-operator-system.svc.cluster.local')).toBeDefined();
    expect(new Date(serving.validTo).getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 86_400_000);
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const webhooks = find<WebhookConfiguration>(objects, kind).webhooks;
      expect(
        webhooks.map((w) => w.clientConfig.caBundle),
        kind,
      ).toEqual(webhooks.map(() => secret.data['ca.crt']));
    }
    expect(find<Deployment>(objects, 'Deployment').spec.template.spec.volumes).toEqual([
      { name: 'cert', secret: { secretName: 'webhook-server-cert', defaultMode: 420 } },
    ]);
    // A second render has no cluster to look the secret up in: a new CA (helm install/upgrade keep the stored one).
    const again = find<TlsSecret>((await render('default')).objects, 'Secret', 'webhook-server-cert');
    expect(again.data['ca.crt']).not.toBe(secret.data['ca.crt']);
  });

  it('with cert-manager (--api-versions cert-manager.io/v1): Issuer, Certificate and CA injection, no generated secret', async () => {
    const { objects } = await render('cert-manager');
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(find(objects, 'Issuer').spec).toEqual({ selfSigned: {} });
    expect(find(objects, 'Certificate').spec).toEqual({
      dnsNames: ['gw-operator-webhook-service.gw-operator-system.svc', 'gw-operator-webhook-service.gw-operator-system.svc.cluster.local'],
      issuerRef: { kind: 'Issuer', name: 'gw-operator-selfsigned-issuer' },
      secretName: 'webhook-server-cert',
    });
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const configuration = find<WebhookConfiguration>(objects, kind);
      expect(configuration.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'gw-operator-system/gw-operator-serving-cert' });
      expect(configuration.webhooks.map((w) => w.clientConfig.caBundle)).toEqual(configuration.webhooks.map(() => undefined));
    }
    // Everything else is the default install.
    const others = (list: KubeManifest[]) =>
      list.filter((o) => !['Issuer', 'Certificate', 'Secret'].includes(o.kind) && !o.kind.endsWith('WebhookConfiguration'));
    expect(others(objects)).toEqual(others((await render('default')).objects));
    // useCertManager=false keeps the chart's own certificate even when cert-manager is there.
    const declined = await helmTemplate([...WITH_CERT_MANAGER, '--set', 'webhooks.tls.useCertManager=false']);
    expect(declined.objects.map((o) => o.kind)).not.toContain('Certificate');
    expect(find<TlsSecret>(declined.objects, 'Secret').data['ca.crt']).toBeTruthy();
  });

  it('global.components.operator=false renders nothing at all', async () => {
    const { text, objects } = await render('operator-disabled');
    expect(objects).toEqual([]);
    expect(text.trim()).toBe('');
  });

  it('webhooks.enabled=false: --webhook-port=0, no webhook Service, configurations, certificates or cert volume', async () => {
    const { objects } = await render('webhooks-disabled');
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'Issuer', 'Certificate', 'Secret'])
      expect(
        objects.some((o) => o.kind === kind),
        kind,
      ).toBe(false);
    expect(objects.some((o) => o.metadata.name === 'gw-operator-webhook-service')).toBe(false);
    expect(arg(objects, '--webhook-port')).toBe('--webhook-port=0');
    expect(arg(objects, '--webhook-cert-dir')).toBeUndefined();
    expect(manager(objects).ports?.map((p) => p.name)).toEqual(['health', 'https']);
    expect(manager(objects).volumeMounts).toBeUndefined();
  });

  it('webhooks.tls.useCertManager=false + caBundle: no cert-manager objects, annotation or generated secret, the CA in every clientConfig', async () => {
    const { objects } = await render('manual-tls');
    expect(objects.some((o) => o.apiVersion.startsWith('cert-manager.io/'))).toBe(false);
    expect(objects.some((o) => o.kind === 'Secret')).toBe(false);
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const configuration = find<WebhookConfiguration>(objects, kind);
      expect(configuration.metadata.annotations).toBeUndefined();
      expect(configuration.webhooks.map((w) => w.clientConfig.caBundle)).toEqual(configuration.webhooks.map(() => CA_BUNDLE));
    }
    expect(manager(objects).volumeMounts?.[0]?.mountPath).toBe('/tmp/k8s-webhook-server/serving-certs'); // the secret you create
  });

  it('webhooks.url: the apiserver calls <url><path> instead of the Service; webhooks.annotations and namespaceSelector reach both configurations', async () => {
    const { objects } = await render('webhook-url');
    const serving = new X509Certificate(pem(find<TlsSecret>(objects, 'Secret').data['tls.crt']!));
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1'); // the generated certificate is valid for the url's host
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const configuration = find<WebhookConfiguration>(objects, kind);
      expect(configuration.metadata.annotations).toEqual({ 'example.com/owner': 'platform' });
      for (const webhook of configuration.webhooks) {
        expect(webhook.clientConfig.service).toBeUndefined();
        expect(webhook.namespaceSelector).toEqual({ matchLabels: { 'gw.io/managed': 'true' } });
      }
    }
    expect(find<WebhookConfiguration>(objects, 'ValidatingWebhookConfiguration').webhooks.map((w) => w.clientConfig.url)).toEqual([
      'https://127.0.0.1:9443/validate-gw-gw-io-v1alpha1-apidefinition',
      'https://127.0.0.1:9443/validate-gw-gw-io-v1alpha1-securitypolicy',
      'https://127.0.0.1:9443/validate-gw-gw-io-v1alpha1-gwstreamsapidefinition',
    ]);
  });

  it('honours the deprecated webhookPort while webhooks.port keeps its default, and webhooks.port wins over it', async () => {
    const deprecated = await render('deprecated-webhook-port');
    expect(arg(deprecated.objects, '--webhook-port')).toBe('--webhook-port=9555');
    expect(manager(deprecated.objects).ports).toContainEqual({ name: 'webhook-server', containerPort: 9555, protocol: 'TCP' });
    const current = await render('webhooks-port');
    expect(arg(current.objects, '--webhook-port')).toBe('--webhook-port=9666');
    expect(manager(current.objects).ports).toContainEqual({ name: 'webhook-server', containerPort: 9666, protocol: 'TCP' });
    // The Service keeps 443 and follows the named port.
    expect(find(current.objects, 'Service', 'gw-operator-webhook-service').spec).toMatchObject({ ports: [{ port: 443, targetPort: 'webhook-server' }] });
  });

  it('ingressClass.create=true adds an IngressClass of our controller, named and marked default as asked; none by default', async () => {
    const { objects } = await render('ingress-class');
    const ingressClass = find<KubeManifest & { spec: { controller: string } }>(objects, 'IngressClass', 'gw-edge');
    expect(ingressClass.spec.controller).toBe('gw.gw.io/ingress-controller');
    expect(ingressClass.metadata.annotations).toEqual({ 'ingressclass.kubernetes.io/is-default-class': 'true' });
    expect((await render('default')).objects.filter((o) => o.kind === 'IngressClass')).toEqual([]);
  });

  it('serviceMonitor=true adds a ServiceMonitor scraping the metrics Service over HTTPS with the pod token', async () => {
    const { objects } = await render('service-monitor');
    const monitor = find(objects, 'ServiceMonitor');
    expect(monitor.metadata.namespace).toBe('gw-operator-system');
    expect(monitor.spec).toEqual({
      endpoints: [
        {
          port: 'https',
          path: '/metrics',
          scheme: 'https',
          bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
          tlsConfig: { insecureSkipVerify: true },
        },
      ],
      selector: {
        matchLabels: { 'app.kubernetes.io/name': 'gw-operator', 'app.kubernetes.io/instance': 'gw-operator', 'control-plane': 'controller-manager' },
      },
    });
    // It selects the metrics Service and only that one.
    const selected = objects.filter((o) => o.kind === 'Service' && o.metadata.labels?.['control-plane'] === 'controller-manager');
    expect(selected.map((o) => o.metadata.name)).toEqual(['gw-operator-controller-manager-metrics-service']);
  });

  it('passes replicaCount, hostNetwork, nodeSelector, podAnnotations, extra volumes, pull secrets and resources to the pod', async () => {
    const { objects } = await render('scheduling');
    const deployment = find<Deployment>(objects, 'Deployment');
    const pod = deployment.spec.template.spec;
    expect(deployment.spec.replicas).toBe(2);
    expect([pod.hostNetwork, pod.dnsPolicy]).toEqual([true, 'ClusterFirstWithHostNet']);
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(deployment.spec.template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'false' });
    expect(pod.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(pod.volumes?.map((v) => v.name)).toEqual(['cert', 'plugins']);
    expect(manager(objects).volumeMounts).toEqual([
      { name: 'cert', mountPath: '/tmp/k8s-webhook-server/serving-certs', readOnly: true },
      { name: 'plugins', mountPath: '/opt/gw/plugins', readOnly: true },
    ]);
    expect(manager(objects).resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
  });

  it('global.license.operator becomes GW_OPERATOR_LICENSEKEY; global.secrets.useSecretName wins and reads key OperatorLicense', async () => {
    expect(env((await render('license')).objects, 'GW_OPERATOR_LICENSEKEY')).toEqual({ name: 'GW_OPERATOR_LICENSEKEY', value: 'abc' });
    const fromSecret = (await render('license-secret')).objects;
    expect(env(fromSecret, 'GW_OPERATOR_LICENSEKEY')).toEqual({
      name: 'GW_OPERATOR_LICENSEKEY',
      valueFrom: { secretKeyRef: { name: 'lic', key: 'OperatorLicense' } },
    });
    expect(manager(fromSecret).env?.map((e) => e.name)).toEqual(['POD_NAMESPACE', 'GW_OPERATOR_LICENSEKEY', 'GW_HTTPS_INGRESS_PORT', 'GW_HTTP_INGRESS_PORT']);
    expect(JSON.stringify(fromSecret)).not.toContain('"abc"');
    // A value given in envVars itself is kept when neither global is set.
    const own = await helmTemplate(['--set-json', 'envVars=[{"name":"GW_OPERATOR_LICENSEKEY","value":"mine"},{"name":"WATCH_NAMESPACE","value":"apis"}]']);
    expect(manager(own.objects).env?.slice(1)).toEqual([
      { name: 'GW_OPERATOR_LICENSEKEY', value: 'mine' },
      { name: 'WATCH_NAMESPACE', value: 'apis' },
    ]);
  });

  it('fullnameOverride names every object and every reference between them', async () => {
    const { objects, text } = await render('fullname-override');
    for (const object of objects) expect(object.metadata.name, identity(object)).toMatch(/^acme-operator-/);
    expect(text).not.toMatch(/gw-operator-(controller|webhook|manager|leader|metrics|serving|selfsigned)/);
    expect(find<Deployment>(objects, 'Deployment').spec.template.spec.serviceAccountName).toBe('acme-operator-controller-manager');
    expect(find<WebhookConfiguration>(objects, 'MutatingWebhookConfiguration').metadata.annotations).toEqual({
      'cert-manager.io/inject-ca-from': 'gw-operator-system/acme-operator-serving-cert',
    });
  });

  it('names objects after the release when it does not contain the chart name', async () => {
    const { stdout } = await runTool('helm', ['template', 'edge', CHART_DIR, '-n', 'apis']);
    expect(stdout).toContain('name: edge-gw-operator-controller-manager');
    expect(stdout).toContain('namespace: apis');
  });

  it('passes helm lint --strict', async () => {
    for (const args of [[], ['--set', 'webhooks.enabled=false'], ['--set', 'global.components.operator=false']]) {
      const result = await runTool('helm', ['lint', '--strict', CHART_DIR, ...args]);
      expect(result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(result.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
    }
  });

  it('ships crds/ byte for byte, and values.yaml holds every value of the documented table', () => {
    const names = readdirSync(join(REPO_ROOT, 'crds')).sort();
    expect(readdirSync(join(CHART_DIR, 'crds')).sort()).toEqual(names);
    for (const name of names) {
      expect(readFileSync(join(CHART_DIR, 'crds', name)).equals(readFileSync(join(REPO_ROOT, 'crds', name))), name).toBe(true);
    }
    const values = readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8');
    for (const key of [
      'envFrom:',
      'envVars:',
      'extraVolumeMounts: []',
      'extraVolumes: []',
      'imagePullSecrets: []',
      'fullnameOverride: ""',
      'nameOverride: ""',
      'healthProbePort: 8081',
      'hostNetwork: false',
      'pullPolicy: IfNotPresent',
      'repository: gw',
      'tag: v1.0.0',
      'metricsPort: 8080',
      'nodeSelector: {}',
      'podAnnotations: {}',
      'resources: {}',
      'allowPrivilegeEscalation: false',
      'port: 8443',
      'replicaCount: 1',
      'serviceMonitor: false',
      'webhookPort: 9443',
      'enabled: true',
      'port: 9443',
      'annotations: {}',
      'useCertManager: true',
      'secretName: webhook-server-cert',
      'certificatesMountPath: /tmp/k8s-webhook-server/serving-certs',
      'caBundle: ""',
      'url: ""',
    ])
      expect(values, key).toContain(`${key}`);
  });

  it('prints the secret to create, the CRD upgrade rule and, for webhookPort, a deprecation warning', async () => {
    const plain = await installNotes(['--set', 'webhooks.tls.useCertManager=false', '--set', `webhooks.tls.caBundle=${CA_BUNDLE}`]);
    expect(plain).toContain('Deployment    gw-operator-controller-manager (1 replica(s), leader-elected), image gw:v1.0.0');
    expect(plain).toContain('kubectl create secret generic gw-operator-conf -n gw-operator-system');
    expect(plain).toContain('--from-literal=GW_MODE=ce');
    expect(plain).toContain('kubectl create secret tls webhook-server-cert -n gw-operator-system');
    expect(plain).toContain('`helm upgrade` does NOT upgrade or delete CRDs');
    expect(plain).toContain('kubectl apply --server-side --force-conflicts -f charts/gw-operator/crds/');
    expect(plain).not.toContain('WARNING');
    expect(await installNotes(['--set', `webhooks.tls.caBundle=${CA_BUNDLE}`, ...cases['deprecated-webhook-port']!])).toContain(
      'WARNING: webhookPort is deprecated (since v1.2.0); use webhooks.port.\n         It is still honoured: the webhook server listens on 9555.',
    );
  });

  it('says in the NOTES which source of the webhook certificate it took', async () => {
    // helm install --dry-run=client asks no cluster: the default values find no cert-manager.
    const generated = await installNotes([]);
    expect(generated).toContain('certificate generated by the chart (cert-manager.io/v1 not found on this cluster): self-signed CA and serving');
    expect(generated).toContain('(install cert-manager, then helm upgrade, to have cert-manager issue it instead)');
    const declined = await helmTemplateNotes(['--set', 'webhooks.tls.useCertManager=false']);
    expect(declined).toContain('certificate generated by the chart: self-signed CA');
    expect(declined).not.toContain('install cert-manager');
    expect(await helmTemplateNotes(['--set', `webhooks.tls.caBundle=${CA_BUNDLE}`])).toContain('certificate from the secret webhook-server-cert you create');
    const certManager = await helmTemplateNotes(WITH_CERT_MANAGER);
    expect(certManager).toContain(
      'certificate by cert-manager (found cert-manager.io/v1): Certificate gw-operator-serving-cert -> secret webhook-server-cert, CA injected',
    );
    expect(certManager).not.toContain('generated');
  });

  describe('on a real apiserver', () => {
    const ns = useNamespace('chart');

    it('helm install with default values works on a cluster without cert-manager (server-side dry run)', async () => {
      // Before: "no matches for kind Certificate in version cert-manager.io/v1" (the default required cert-manager).
      const result = await runTool('helm', ['install', '--dry-run=server', RELEASE, CHART_DIR, '-n', ns.name], { allowFailure: true });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('certificate generated by the chart (cert-manager.io/v1 not found on this cluster)');
      expect(parseManifests(result.stdout.slice(result.stdout.indexOf('MANIFEST:'), result.stdout.indexOf('NOTES:'))).map((o) => o.kind)).toContain('Secret');
    });

    it('accepts every default object (server-side dry run), cert-manager and Prometheus kinds aside', async () => {
      for (const args of [[], cases['manual-tls']!, cases['webhook-url']!, cases.scheduling!]) {
        const { objects } = await helmTemplate(args, ns.name);
        const core = objects.filter((o) => !['Issuer', 'Certificate', 'ServiceMonitor'].includes(o.kind));
        const result = await kubectl(['apply', '--dry-run=server', '-f', '-'], {
          input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: core }),
          allowFailure: true,
        });
        expect(result.stderr, args.join(' ')).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout.trim().split('\n')).toHaveLength(core.length);
      }
    });
  });
});
