// `gw up --with-node`: what users get from the chart, on this machine, until Ctrl-C. It reuses the node harness
// (src/up/node/node.ts, the same one `npm run cluster:up -- --with-node` and the node e2e use) and never
// duplicates it:
//
//   1 what a node needs (root, kernel features, Debian tools: src/up/node/host-features.ts) and the binaries
//   2 the product image, built here without a registry or answered from its cache (src/up/image/build-image.ts)
//   3 a local control plane
//   4 a real node joined to it (containerd, kubelet, kube-proxy, the CNI bridge on 10.99.0.1), the image imported
//   5 a gateway pod behind a NodePort Service (src/up/node-workloads.ts), then `helm install` of the chart with its
//     defaults: the operator runs as a pod, pointed at that gateway; waits until both Deployments' pods are Ready
//   6 config/samples/httpbin.yaml applied, synced, and one request through the node address (NodePort)
// Then it prints what runs, the kubeconfig, and the curl line through the node address ("gw is up").
// Ctrl-C / SIGTERM / SIGHUP (also while it is starting) stops the node, undoing every host change it made
// (src/up/node/teardown.ts), then the control plane, and removes the state directory. Without what a node needs
// it names what is missing and exits 1 before starting anything. It never breaks another node's lock: when a
// node already runs on this machine it says so and exits 1.
// Only from a clone of the repository (the image and the node are built from its scripts/); not in the image.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { request } from 'undici';
import { buildImage } from './image/build-image.ts';
import { missingNodeFeatures } from './node/host-features.ts';
import { nodeBinDir } from './node/node-binaries.ts';
import { liveNode } from './node/node-lock.ts';
import { startNode, stopNode } from './node/node.ts';
import { controlPlaneBinDir } from './binaries.ts';
import { startControlPlane, stopControlPlane } from './controlplane.ts';
import { gatewayWorkload, GATEWAY_PORT } from './node-workloads.ts';
import { retryWhileNotServing } from './not-serving-yet.ts';
import { REPO_ROOT } from './paths.ts';

const run = promisify(execFile);
const STEPS = 6;
const RELEASE = 'gw-operator';
const OPERATOR_NAMESPACE = 'gw-operator-system';
const OPERATOR_DEPLOYMENT = 'gw-operator-controller-manager';
const SAMPLES_NAMESPACE = 'samples';
const GATEWAY_NAMESPACE = 'gw-up';
const SAMPLE_PATH = '/httpbin/get';

export interface WithNodeOptions {
  /** gw up's state directory; the node's lives in <stateDir>/node. Removed on exit. */
  stateDir: string;
}

const say = (line: string): boolean => process.stderr.write(`${line}\n`);
const step = (n: number, text: string): boolean => say(`[${n}/${STEPS}] ${text}`);
const seconds = (since: number): number => Math.round((Date.now() - since) / 100) / 10;

/** Resolves on the first Ctrl-C / SIGTERM / SIGHUP. */
function signalled(): Promise<NodeJS.Signals> {
  return new Promise((resolveSignal) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolveSignal(signal));
  });
}

export async function upWithNode(options: WithNodeOptions): Promise<number> {
  const started = Date.now();
  const { stateDir } = options;
  const nodeDir = join(stateDir, 'node');

  step(1, 'checking what a node needs on this machine');
  const missing = missingNodeFeatures();
  if (missing.length > 0) {
    say(
      `gw up --with-node cannot run a node on this machine; missing:\n${missing.map((what) => `  - ${what}`).join('\n')}\nnothing was started (plain \`gw up\` needs none of this)`,
    );
    return 1;
  }
  const other = liveNode();
  if (other) {
    say(
      `another node is running on this machine (state in ${other}); only one may run at a time: stop it first (npm run cluster:down, or Ctrl-C where gw up runs)`,
    );
    return 1;
  }

  const stops: (() => Promise<void>)[] = []; // run in reverse order
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error: unknown) => say(`      ${(error as Error).message}`));
  };
  // A signal while starting stops what was started so far (the node's host changes included), then exits.
  let interrupted: NodeJS.Signals | undefined;
  const signal = signalled().then(async (received) => {
    interrupted = received;
    say(`${received}: stopping ...`);
    await stopAll();
    say("stopped; the node's host changes are undone");
    return received;
  });
  const checkInterrupted = (): void => {
    if (interrupted) throw new Error(`interrupted by ${interrupted}`);
  };

  try {
    say('      locating kubectl, helm, the control plane and the node binaries (the first run builds them)');
    const binDir = await controlPlaneBinDir();
    const kubeNodeDir = nodeBinDir();
    checkInterrupted();

    step(2, 'building the product image, or reusing it from the cache (a cold build takes minutes)');
    let at = Date.now();
    const image = buildImage();
    say(`      image ${image.reference} (${seconds(at)} s)`);
    checkInterrupted();

    step(3, 'starting the local control plane');
    at = Date.now();
    await stopNode(nodeDir); // a node a killed gw up left behind here
    await stopControlPlane(stateDir); // leftovers of a gw up that was killed
    // The apiserver reaches the kubelet (logs, exec) by the node's address: there is no DNS for its name.
    const plane = await startControlPlane({
      dir: stateDir,
      binDir,
      log: (line) => say(`      ${line}`),
      apiserverArgs: ['--kubelet-preferred-address-types=InternalIP'],
    });
    stops.push(async () => {
      await plane.stop();
      rmSync(stateDir, { recursive: true, force: true });
    });
    say(`      control plane up (${seconds(at)} s)`);
    checkInterrupted();

    step(4, 'starting the node (containerd, kubelet, kube-proxy, the CNI bridge) and importing the image');
    at = Date.now();
    const node = await startNode({ dir: nodeDir, cluster: plane, nodeBinDir: kubeNodeDir, images: [image.archive], log: (line) => say(`      ${line}`) });
    stops.push(() => node.stop());
    const nodeSeconds = seconds(at);
    checkInterrupted();

    const env = { ...process.env, KUBECONFIG: plane.kubeconfig, PATH: `${binDir}:${process.env.PATH ?? ''}` };
    const tool = async (name: 'kubectl' | 'helm', args: string[], input?: string): Promise<string> => {
      const child = run(join(binDir, name), args, { env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
      if (input !== undefined) child.child.stdin?.end(input);
      return (await child).stdout.trim();
    };

    const gatewaySecret = randomBytes(18).toString('base64url');
    step(5, 'a gateway pod, then `helm install` of the chart (the operator as a pod); waiting for the pods to be Ready');
    at = Date.now();
    await tool('kubectl', ['create', 'namespace', GATEWAY_NAMESPACE]);
    await tool(
      'kubectl',
      ['apply', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: gatewayWorkload({}, { namespace: GATEWAY_NAMESPACE, secret: gatewaySecret }) }),
    );
    const gatewayIp = await tool('kubectl', ['get', 'service', 'gateway', '-n', GATEWAY_NAMESPACE, '-o', 'jsonpath={.spec.clusterIP}']);
    const nodePort = await tool('kubectl', ['get', 'service', 'gateway', '-n', GATEWAY_NAMESPACE, '-o', 'jsonpath={.spec.ports[0].nodePort}']);
    await tool('helm', ['install', RELEASE, join(REPO_ROOT, 'charts', 'gw-operator'), '-n', OPERATOR_NAMESPACE, '--create-namespace']);
    await tool('kubectl', [
      'create',
      'secret',
      'generic',
      'gw-operator-conf',
      '-n',
      OPERATOR_NAMESPACE,
      '--from-literal=GW_OPERATOR_LICENSEKEY=gw-up-local',
      '--from-literal=GW_MODE=ce',
      `--from-literal=GW_URL=http://${gatewayIp}:${GATEWAY_PORT}`,
      `--from-literal=GW_AUTH=${gatewaySecret}`,
      '--from-literal=GW_ORG=gw-up',
    ]);
    say('      waiting for the gateway pod to be Ready');
    await tool('kubectl', ['rollout', 'status', 'deployment/gateway', '-n', GATEWAY_NAMESPACE, '--timeout=180s']);
    say('      waiting for the operator pod to be Ready');
    await tool('kubectl', ['rollout', 'status', `deployment/${OPERATOR_DEPLOYMENT}`, '-n', OPERATOR_NAMESPACE, '--timeout=180s']);
    say(`      pods Ready (${seconds(at)} s)`);
    checkInterrupted();

    step(6, `applying config/samples/httpbin.yaml in namespace ${SAMPLES_NAMESPACE} and calling it through the node address`);
    await tool('kubectl', ['create', 'namespace', SAMPLES_NAMESPACE]);
    // The operator's pod is Ready, but its webhook's Service gets the endpoint a moment later: until then the apply
    // fails with "connection refused" (about one run in two on a loaded machine).
    await retryWhileNotServing(() => tool('kubectl', ['apply', '-n', SAMPLES_NAMESPACE, '-f', join(REPO_ROOT, 'config', 'samples', 'httpbin.yaml')]), {
      onRetry: (_error, attempt) => {
        if (attempt === 1) say("      the operator's webhook has no endpoint yet; retrying the apply");
      },
    });
    await tool('kubectl', [
      'wait',
      '-n',
      SAMPLES_NAMESPACE,
      'apidefinition/httpbin',
      '--for=jsonpath={.status.latestTransaction.status}=Successful',
      '--timeout=120s',
    ]);
    const sampleUrl = `http://${node.ip}:${nodePort}${SAMPLE_PATH}`;
    const answer = await firstAnswer(sampleUrl, 60_000, () => interrupted !== undefined);
    checkInterrupted();
    const pods = await tool('kubectl', ['get', 'pods', '-A', '-o', 'wide']);
    const resources = await tool('kubectl', ['get', 'gw', '-n', SAMPLES_NAMESPACE]);
    process.stdout.write(
      [
        '',
        `gw is up on a real node (${node.name} at ${node.ip}), ready in ${seconds(started)} s (node start ${nodeSeconds} s):`,
        `  operator         helm release ${RELEASE} in namespace ${OPERATOR_NAMESPACE} (chart charts/gw-operator, image ${image.reference})`,
        `  gateway          a pod in namespace ${GATEWAY_NAMESPACE}, NodePort Service http://${node.ip}:${nodePort} (management API /gw/, secret ${gatewaySecret})`,
        `  control plane    ${plane.server} (logs in ${join(stateDir, 'logs')}); node logs in ${join(nodeDir, 'logs')}`,
        '',
        'Pods:',
        pods.replace(/^/gm, '  '),
        '',
        'Aim kubectl and helm at it:',
        `  export KUBECONFIG=${plane.kubeconfig}`,
        `  export PATH=${binDir}:$PATH`,
        '',
        `kubectl get gw -n ${SAMPLES_NAMESPACE}:`,
        resources.replace(/^/gm, '  '),
        '',
        `The sample API through the node address: HTTP ${answer.status}`,
        `  curl ${sampleUrl}`,
        `Your first API: kubectl apply -n ${SAMPLES_NAMESPACE} -f <an ApiDefinition>, then curl http://${node.ip}:${nodePort}<its listen_path>`,
        '',
        "Press Ctrl-C to stop everything (the node's host changes are undone).",
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (interrupted) {
      await signal;
      await stopAll(); // what a step in flight at the signal started after it
      return 130;
    }
    say(`gw up --with-node failed; stopping what it started\n${(error as Error).message}`);
    await stopAll();
    return 1;
  }

  await signal;
  return 0;
}

/** The first 200 answer of url within timeoutMs (the gateway learns of the sync within its reload debounce). */
async function firstAnswer(url: string, timeoutMs: number, stop: () => boolean): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline && !stop()) {
    try {
      const response = await request(url, { headersTimeout: 5_000, bodyTimeout: 5_000 });
      const body = await response.body.text();
      if (response.statusCode === 200) return { status: 200, body };
      last = `HTTP ${response.statusCode}: ${body.slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`the sample API did not answer through the node address (${url}) in ${timeoutMs / 1000} s; last: ${last}`);
}
