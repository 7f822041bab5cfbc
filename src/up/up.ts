// `gw up`: the whole system on this machine, on its embedded defaults, until Ctrl-C; then nothing is left running.
//
//   1 kubectl and the control plane binaries (built once from test/controlplane, cached after)
//   2 a local Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager), or --kubeconfig's cluster
//   3 gw's CRDs
//   4 a gateway on its embedded store (bin/gw gateway) and a sample upstream (an echo server)
//   5 the operator (bin/gw operator) pointed at that gateway
//   6 the samples (config/samples: a protected API and the policy granting it) in namespace gw-demo, synced
//   7 a key for the policy and one request through the gateway with it
// With --licensed (licensed.ts): a dashboard on its embedded database, with its web UI, before step 4; the gateway
// loads APIs, policies and keys from it, the operator syncs into it (GW_MODE=pro), the key is made in it, and the
// summary names the web UI's URL and an access key to sign in with.
// Progress goes to stderr; the summary (what runs where, the kubeconfig, a curl line, `kubectl get gw`) to stdout.
// With --with-node (with-node.ts): the same as users run it from the chart, on a real node of this machine: the
// operator and a gateway as pods of the image built here, the sample reached through the node address.
// Ctrl-C (or SIGTERM/SIGHUP) deletes the samples while the operator still runs (so the gateway is cleaned too),
// then stops the operator, the gateway and the control plane, and removes the state directory.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { controlPlaneBinDir } from './binaries.ts';
import { startGwChild, type GwChild } from './child.ts';
import { runningControlPlane, startControlPlane, stopControlPlane } from './controlplane.ts';
import { installCrds } from './crds.ts';
import { DEMO_NAMESPACE, demoManifests, DEMO_POLICY, DEMO_API } from './demo.ts';
import { startEchoServer } from './echo.ts';
import { createDashboardKey, startLicensedDashboard, type LicensedDashboard } from './licensed.ts';
import { cacheRoot } from './paths.ts';
import { freePorts } from './ports.ts';
import { retryWhileNotServing } from './not-serving-yet.ts';
import { parseUpOptions, takenPortProblem, usage } from './options.ts';
import { idFor } from '../operator/sync/ids.ts';

const run = promisify(execFile);

const STEPS = 7;

export async function up(argv: string[]): Promise<number> {
  const options = parseUpOptions(argv);
  if ('problem' in options) {
    process.stderr.write(`gw up: ${options.problem}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage);
    return 0;
  }
  const step = (n: number, total: number, text: string): boolean => process.stderr.write(`[${n}/${total}] ${text}\n`);
  const stateDir = options.stateDir ?? join(cacheRoot(), 'up');
  const already = runningControlPlane(stateDir);
  if (already && !options.kubeconfig) {
    process.stderr.write(`gw up is already running (KUBECONFIG=${already.kubeconfig}); stop it with Ctrl-C where it runs\n`);
    return 1;
  }
  if (options.withNode) {
    if (options.licensed || options.kubeconfig) {
      process.stderr.write(
        `gw up --with-node does not take ${options.licensed ? '--licensed' : '--kubeconfig'} (yet): it runs the chart's open-source mode on a node of this machine; use plain \`gw up --licensed\` for the dashboard\n`,
      );
      return 2;
    }
    const { upWithNode } = await import('./with-node.ts'); // loaded only here: the image build runs the clone's scripts/build-*.{mjs,sh}
    return upWithNode({ stateDir });
  }
  const taken = await takenPortProblem([
    { port: options.gatewayPort, flag: '--gateway-port', what: "gw up's gateway" },
    ...(options.licensed ? [{ port: options.dashboardPort, flag: '--dashboard-port', what: "gw up's dashboard" }] : []),
  ]);
  if (taken) {
    process.stderr.write(`gw up: ${taken}\nnothing was started\n`);
    return 1;
  }

  step(1, STEPS, 'locating kubectl and the control plane (built on the first run, from the cache after)');
  const binDir = await controlPlaneBinDir();
  const kubectl = join(binDir, 'kubectl');
  let kubeconfig = options.kubeconfig;
  const stops: (() => Promise<void>)[] = []; // run in reverse order
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => process.stderr.write(`      ${(error as Error).message}\n`));
  };
  const components: string[] = [];
  if (kubeconfig) {
    step(2, STEPS, `using the cluster of ${kubeconfig}`);
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    stops.push(async () => rmSync(stateDir, { recursive: true, force: true }));
  } else {
    step(2, STEPS, 'starting the local control plane');
    await stopControlPlane(stateDir); // leftovers of a gw up that was killed
    const plane = await startControlPlane({ dir: stateDir, binDir, log: (line) => process.stderr.write(`      ${line}\n`) });
    kubeconfig = plane.kubeconfig;
    components.push(`kube-apiserver   ${plane.server}`, `etcd, kube-controller-manager (logs in ${join(stateDir, 'logs')})`);
    stops.push(async () => {
      await plane.stop();
      rmSync(stateDir, { recursive: true, force: true });
    });
  }
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  const kubectlRun = (args: string[]) => run(kubectl, args, { env });
  try {
    step(3, STEPS, 'installing the gw CRDs');
    await installCrds({ kubectl, kubeconfig });

    step(4, STEPS, 'starting a gateway on its embedded store, and a sample upstream');
    const logs = join(stateDir, 'logs');
    mkdirSync(logs, { recursive: true });
    const echo = await startEchoServer();
    stops.push(() => echo.close());
    const [healthPort, metricsPort, freeGatewayPort, freeDashboardPort] = (await freePorts(4)) as [number, number, number, number];
    const gatewayPort = options.gatewayPort || freeGatewayPort;
    let dashboard: LicensedDashboard | undefined;
    if (options.licensed) {
      process.stderr.write('      licensed mode: starting the dashboard (embedded database) first\n');
      dashboard = await startLicensedDashboard({ stateDir, logFile: join(logs, 'dashboard.log'), port: options.dashboardPort || freeDashboardPort });
      const started = dashboard;
      stops.push(async () => void (await started.child.stop()));
      components.push(`dashboard        ${dashboard.url} (web UI at /, API at /api/; config ${dashboard.configFile}; log ${join(logs, 'dashboard.log')})`);
    }
    const secret = randomBytes(24).toString('base64url');
    const gatewayDir = join(stateDir, 'gateway');
    mkdirSync(gatewayDir, { recursive: true, mode: 0o700 });
    const gatewayConfig = join(gatewayDir, 'gateway.json');
    const fromDashboard = dashboard
      ? {
          use_db_app_configs: true,
          policies: { policy_source: 'service' },
          db_app_conf_options: { connection_string: dashboard.url, node_secret: dashboard.nodeSecret, poll_interval_seconds: 1 },
        }
      : {};
    writeFileSync(gatewayConfig, JSON.stringify({ listen_address: '127.0.0.1', listen_port: gatewayPort, secret, ...fromDashboard }, null, 2), { mode: 0o600 });
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const gateway = await startGwChild({
      args: ['gateway', '--config', gatewayConfig],
      output: { logFile: join(logs, 'gateway.log') },
      readyUrl: `${gatewayUrl}/ready`,
    });
    stops.push(async () => void (await gateway.stop()));
    components.push(
      `gateway          ${gatewayUrl} (management API ${gatewayUrl}/gw/, secret in ${gatewayConfig}; log ${join(logs, 'gateway.log')})`,
      `sample upstream  ${echo.url} (echoes requests)`,
    );

    step(5, STEPS, 'starting the operator');
    const operator: GwChild = await startGwChild({
      args: ['operator', '--metrics-bind-address', `127.0.0.1:${metricsPort}`, '--health-probe-bind-address', `127.0.0.1:${healthPort}`],
      env: {
        ...env,
        GW_OPERATOR_LICENSEKEY: 'gw-up-local',
        GW_RELOAD_DEBOUNCE_MS: '50',
        ...(dashboard
          ? { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: dashboard.operatorKey, GW_ORG: dashboard.orgId }
          : { GW_MODE: 'ce', GW_URL: gatewayUrl, GW_AUTH: secret, GW_ORG: 'gw-up' }),
      },
      output: { logFile: join(logs, 'operator.log') },
      readyUrl: `http://127.0.0.1:${healthPort}/readyz`,
    });
    // Samples go first on the way down: their finalizers need the operator to clean the gateway.
    stops.push(async () => void (await operator.stop()));
    components.push(
      `operator         metrics http://127.0.0.1:${metricsPort}/metrics, probes http://127.0.0.1:${healthPort}/readyz (log ${join(logs, 'operator.log')})`,
    );

    step(6, STEPS, `applying the samples in namespace ${DEMO_NAMESPACE} and waiting until they are synced`);
    stops.push(async () => {
      await kubectlRun(['delete', 'namespace', DEMO_NAMESPACE, '--ignore-not-found', '--wait=true', '--timeout=60s']);
    });
    // Right after the CRDs are installed, as with-node right after its install: a webhook or the apiserver not yet
    // serving is waited for (not-serving-yet.ts).
    await retryWhileNotServing(() => applyManifests(kubectl, env, DEMO_NAMESPACE, demoManifests(echo.url)));
    for (const [resource, name] of [
      ['apidefinition', DEMO_API],
      ['securitypolicy', DEMO_POLICY],
    ] as const) {
      await kubectlRun(['wait', '-n', DEMO_NAMESPACE, `${resource}/${name}`, '--for=jsonpath={.status.latestTransaction.status}=Successful', '--timeout=120s']);
    }

    step(7, STEPS, 'creating a key for the policy and sending one request through the gateway');
    const policyId = idFor(DEMO_NAMESPACE, DEMO_POLICY);
    const key = dashboard ? await createDashboardKey(dashboard, policyId) : await createKey(gatewayUrl, secret, policyId);
    const listenPath = `/${DEMO_API}/`;
    // The gateway learns of the sync a moment after the status says Successful: the operator's reload request is
    // debounced (GW_RELOAD_DEBOUNCE_MS, 50 ms here), and in licensed mode the gateway polls the dashboard (1 s).
    const deadline = Date.now() + 30_000;
    let proxied = await request(`${gatewayUrl}${listenPath}get?hello=gw`, { headers: { authorization: key } });
    let proxiedBody = await proxied.body.text();
    while (proxied.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
      proxied = await request(`${gatewayUrl}${listenPath}get?hello=gw`, { headers: { authorization: key } });
      proxiedBody = await proxied.body.text();
    }
    const rejected = await request(`${gatewayUrl}${listenPath}get`);
    await rejected.body.dump();
    const resources = await kubectlRun(['get', 'gw', '-n', DEMO_NAMESPACE]);
    process.stdout.write(
      [
        '',
        'gw is up.',
        ...components.map((line) => `  ${line}`),
        '',
        'Aim kubectl and helm at it:',
        `  export KUBECONFIG=${kubeconfig}`,
        `  export PATH=${binDir}:$PATH`,
        '',
        `kubectl get gw -n ${DEMO_NAMESPACE}:`,
        resources.stdout.trimEnd().replace(/^/gm, '  '),
        '',
        `One request through the gateway with the sample key: HTTP ${proxied.statusCode} (without the key: HTTP ${rejected.statusCode})`,
        `  curl -H 'Authorization: ${key}' ${gatewayUrl}${listenPath}get`,
        '',
        ...(dashboard ? [`The dashboard's web UI: ${dashboard.url}/  (sign in as ${dashboard.userEmail} with access key ${dashboard.userKey})`, ''] : []),
        'Press Ctrl-C to stop everything.',
        '',
      ].join('\n'),
    );
    if (proxied.statusCode !== 200) process.stderr.write(`the sample request failed (HTTP ${proxied.statusCode}): ${proxiedBody}\n`);
  } catch (error) {
    process.stderr.write('gw up failed; stopping what it started\n');
    await stopAll();
    throw error;
  }

  await new Promise<void>((resolveSignal) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolveSignal());
  });
  process.stderr.write('stopping ...\n');
  await stopAll();
  process.stderr.write('stopped; nothing is left running\n');
  return 0;
}

async function applyManifests(kubectl: string, env: NodeJS.ProcessEnv, namespace: string, manifests: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = execFile(kubectl, ['apply', '-n', namespace, '-f', '-'], { env }, (error, _stdout, stderr) =>
      error ? reject(new Error(`kubectl apply of the samples failed: ${stderr}`)) : resolve(),
    );
    child.stdin?.end(manifests);
  });
}

async function createKey(gatewayUrl: string, secret: string, policyId: string): Promise<string> {
  const response = await request(`${gatewayUrl}/gw/keys/create`, {
    method: 'POST',
    headers: { 'x-gw-authorization': secret, 'content-type': 'application/json' },
    body: JSON.stringify({ apply_policies: [policyId], alias: 'gw-up-sample' }),
  });
  const body = (await response.body.json()) as { key?: string; message?: string };
  if (response.statusCode !== 200 || !body.key) throw new Error(`creating the sample key failed (HTTP ${response.statusCode}): ${body.message ?? ''}`);
  return body.key;
}
