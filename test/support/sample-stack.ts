// Everything config/samples needs at once, as `gw up --licensed` runs it: a dashboard on its embedded store with
// one operator-managed organisation (its system user for the operator, a human for keys), ONE gateway fed by that
// dashboard (HTTP and HTTPS listeners, Redis store), ONE operator in licensed (pro) mode watching one namespace with
// its admission webhooks registered for that namespace only, and the servers the samples point at: an echo
// upstream, a GraphQL server for the countries schema, the two federation subgraphs and Redis (store and stream
// broker). `copy()` writes the samples aimed at those servers; nothing here applies them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { freePorts } from '../../src/up/ports.ts';
import { webhookConfigurations } from '../../src/operator/webhooks/configurations.ts';
import { createCertificateAuthority, issueServingCertificate } from './certificates.ts';
import { writeCertDir } from './certs.ts';
import { installCrds } from './crds.ts';
import { ALL_WRITE, createOrg, NODE_SECRET, startDashboard, type RunningDashboard, type TestOrg } from './dashboard.ts';
import { startReviewsSubgraph, startUsersSubgraph } from './federation-fixtures.ts';
import { startGateway, type RunningGateway } from './gateway.ts';
import { kubectl } from './kubectl.ts';
import { startOperator, type RunningOperator } from './operator.ts';
import { startRedis, type RunningRedis } from './redis.ts';
import { copySamples, SAMPLES_DIR } from './samples.ts';
import { GW_KINDS } from './served-status.ts';
import { startSubgraph, type Subgraph } from './subgraph.ts';
import { builtTemplateEngine } from './template-engine.ts';
import { startUpstream, type Upstream } from './upstream.ts';

/** The addresses config/samples are written for, besides SAMPLES_UPSTREAM. */
const COUNTRIES_UPSTREAM = 'http://127.0.0.1:18081';
const USERS_UPSTREAM = 'http://127.0.0.1:4001';
const REVIEWS_UPSTREAM = 'http://127.0.0.1:4002';
const SAMPLES_REDIS = 'redis://127.0.0.1:6379';
/** redis_tcp.yaml: the port the gateway opens and the Redis it pipes to. */
const SAMPLES_TCP_PORT = 'listen_port: 6380\n';
const SAMPLES_TCP_REDIS = 'tcp://127.0.0.1:6379';

export interface SampleStack {
  namespace: string;
  dir: string;
  dashboard: RunningDashboard;
  org: TestOrg;
  gateway: RunningGateway;
  httpsPort: number;
  /** The port redis_tcp.yaml opens (its listen_port, whitelisted). */
  tcpPort: number;
  operator: RunningOperator;
  redis: RunningRedis;
  echo: Upstream;
  countries: Subgraph;
  users: Subgraph;
  reviews: Subgraph;
  /** The samples (config/samples without invalid/) aimed at this stack's servers; returns the directory. */
  copy(): string;
}

/** The GraphQL schema of the countries sample (its spec.graphql.schema), served by a real graphql-js server. */
function countriesSchema(): string {
  const text = readFileSync(join(SAMPLES_DIR, 'graphql', 'countries_graphql.yaml'), 'utf8');
  const api = parseAllDocuments(text)
    .map((doc) => doc.toJS() as { kind: string; spec: { graphql: { schema: string } } })
    .find((doc) => doc.kind === 'ApiDefinition');
  return api!.spec.graphql.schema;
}

const COUNTRIES = [
  { code: 'FR', name: 'France', capital: 'Paris', continent: { code: 'EU', name: 'Europe', countries: [] } },
  { code: 'JP', name: 'Japan', capital: 'Tokyo', continent: { code: 'AS', name: 'Asia', countries: [] } },
];

export async function startSampleStack(): Promise<SampleStack> {
  const namespace = `samples-${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'gw-e2e-samples-'));
  const [, redis, dashboard, echo, countries, users, reviews, ports] = await Promise.all([
    installCrds(),
    startRedis(),
    startDashboard({ allow_explicit_policy_id: true, enable_duplicate_slugs: true }),
    startUpstream(),
    startSubgraph(countriesSchema(), { country: ({ code }: { code: string }) => COUNTRIES.find((c) => c.code === code), countries: () => COUNTRIES }, {}),
    startUsersSubgraph(),
    startReviewsSubgraph(),
    freePorts(3),
    kubectl(['create', 'namespace', namespace]),
  ]);
  const [httpsPort, webhookPort, tcpPort] = ports as [number, number, number];
  const org = await createOrg(dashboard, 'Samples');
  const managed = await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true });
  if (managed.status !== 200) throw new Error(`organisation not operator-managed: ${managed.status} ${managed.text}`);
  const system = await org.user(ALL_WRITE, { system: true });

  const gateway = await startGateway(
    {
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
      storage: { type: 'redis', host: '127.0.0.1', port: redis.port },
      http_server_options: { https_port: httpsPort },
      ports_whitelist: { tcp: { ports: [tcpPort] } }, // redis_tcp.yaml's port
      // No cluster DNS here: the Ingress sample's Service name reaches the echo upstream (its port: see copy()).
      upstream_hosts: { [`shop.${namespace}.svc`]: '127.0.0.1' },
    },
    { env: { GW_TEMPLATE_ENGINE: builtTemplateEngine() } },
  ); // the transforms sample's body templates

  const certDir = join(dir, 'webhook-certs');
  const ca = createCertificateAuthority({ commonName: 'gw e2e samples webhook CA' });
  writeCertDir(certDir, issueServingCertificate(ca, { commonName: 'gw-webhook', ipAddresses: ['127.0.0.1'] }));
  const operator = await startOperator({
    gateway,
    namespace,
    env: { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: system, GW_ORG: org.id },
    args: ['--webhook-port', String(webhookPort), '--webhook-cert-dir', certDir],
  });
  const { mutating, validating } = webhookConfigurations({
    name: `gw-${namespace}`,
    endpoint: { url: `https://127.0.0.1:${webhookPort}` },
    caPem: ca.certPem,
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
    timeoutSeconds: 10,
  });
  await kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [mutating, validating] }) });

  return {
    namespace,
    dir,
    dashboard,
    org,
    gateway,
    httpsPort,
    tcpPort,
    operator,
    redis,
    echo,
    countries,
    users,
    reviews,
    copy: () =>
      copySamples(join(dir, 'samples'), echo.url, {
        recursive: true,
        replace: {
          [COUNTRIES_UPSTREAM]: countries.url,
          [USERS_UPSTREAM]: users.url,
          [REVIEWS_UPSTREAM]: reviews.url,
          [SAMPLES_REDIS]: `redis://127.0.0.1:${redis.port}`,
          [SAMPLES_TCP_REDIS]: `tcp://127.0.0.1:${redis.port}`,
          [SAMPLES_TCP_PORT]: `listen_port: ${tcpPort}\n`,
          // The Ingress sample's Service port (80) becomes the echo's: the gateway reaches shop.<ns>.svc:<port>.
          'port: 80\n': `port: ${echo.port}\n`,
          'number: 80\n': `number: ${echo.port}\n`,
        },
      }),
  };
}

/** Removes what outlives the processes: the webhook configurations and the namespace (finalizers cleared). */
export async function removeSampleStack(stack: SampleStack | undefined): Promise<void> {
  if (!stack) return;
  await kubectl(['delete', 'mutatingwebhookconfiguration,validatingwebhookconfiguration', `gw-${stack.namespace}`, '--ignore-not-found'], {
    allowFailure: true,
  });
  await stack.operator.stop('SIGKILL');
  const { stdout } = await kubectl(['get', GW_KINDS.join(','), '-n', stack.namespace, '-o', 'name'], { allowFailure: true });
  await Promise.all(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((name) => kubectl(['patch', name, '-n', stack.namespace, '--type=merge', '-p', '{"metadata":{"finalizers":null}}'], { allowFailure: true })),
  );
  await kubectl(['delete', 'namespace', stack.namespace, '--wait=false'], { allowFailure: true });
}
