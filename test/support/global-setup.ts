// Vitest global setup of the integration and e2e projects: one control plane for the integration project and one
// for e2e (memoised on globalThis, because vitest may call this once per project), each stopped when the run ends.
// e2e gets its own because its suites install the chart: an operator watching every namespace and admission
// webhooks for the whole cluster. With files running in parallel, sharing one cluster let the e2e operator
// reconcile an integration test's objects against its own gateway (a portal-ce status named the wrong gateway), and
// its webhooks answer for every apply while it is being uninstalled.
// With GW_TEST_KUBECONFIG set the suites use that cluster instead (a kind cluster elsewhere) and start nothing.
// Tests read the kubeconfig and the directory of kubectl/helm with inject('kubeconfig') / inject('binDir').
// The integration plane gets gw's CRDs here, once per run (test/support/crds.ts then skips its own apply and
// wait: about 1.5 s per file, 23 files); the e2e plane gets them from what its tests install (the chart, gw up).
// vitest runs the projects' global setups one after another before any file starts, so the first call starts every
// control plane the run's files need (both, in a full run: about 4 s sooner than one after the other on 2 cores).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { controlPlaneBinDir } from '../../src/up/binaries.ts';
import { installCrds } from '../../src/up/crds.ts';
import { startControlPlane, type ControlPlane } from '../../src/up/controlplane.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfig: string;
    binDir: string;
    /** gw's CRDs are installed and Established (the integration plane). */
    crdsInstalled: boolean;
  }
}

interface Shared {
  cluster: Promise<{ kubeconfig: string; binDir: string; stop(): Promise<void> }>;
  /** The integration plane's CRDs, installed once the cluster is up. */
  crds: Promise<void> | undefined;
  users: number;
}

type Plane = 'integration' | 'e2e';
const planeOf = (project: TestProject): Plane => (project.name === 'e2e' ? 'e2e' : 'integration');
const keyOf = (plane: Plane): symbol => Symbol.for(`gw.test.controlplane.${plane}`);
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

async function acquire(): Promise<{ kubeconfig: string; binDir: string; stop(): Promise<void> }> {
  const external = process.env.GW_TEST_KUBECONFIG;
  if (external) return { kubeconfig: external, binDir: await controlPlaneBinDir(), stop: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'gw-test-cluster-'));
  let plane: ControlPlane;
  try {
    plane = await startControlPlane({
      dir,
      log: (line) => process.stderr.write(`[controlplane] ${line}\n`),
      // Webhook and aggregated-API Services resolve to their EndpointSlices (there is no kube-proxy to route a
      // ClusterIP): test/support/deployed-operator.ts publishes the operator it runs as such an endpoint.
      apiserverArgs: ['--enable-aggregator-routing=true'],
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const stopOnExit = (): void => plane.kill();
  process.once('exit', stopOnExit);
  return {
    kubeconfig: plane.kubeconfig,
    binDir: plane.binDir,
    stop: async () => {
      process.off('exit', stopOnExit);
      await plane.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The control planes of the projects (this one's included) that have files in this run. */
function planesOfRun(project: TestProject): Set<Plane> {
  const files = project.vitest.state.getPaths();
  const planes = new Set<Plane>([planeOf(project)]);
  for (const other of project.vitest.projects) {
    if (other.name !== 'integration' && other.name !== 'e2e') continue;
    if (files.some((file) => other.matchesTestGlob(file))) planes.add(planeOf(other));
  }
  return planes;
}

function start(plane: Plane): Shared {
  const cluster = acquire();
  cluster.catch(() => undefined); // its own setup awaits it (and fails with it); not an unhandled rejection before
  const crds =
    plane === 'integration'
      ? cluster.then(({ kubeconfig, binDir }) => installCrds({ kubectl: join(binDir, 'kubectl'), kubeconfig, fieldManager: 'gw-tests' }))
      : undefined;
  crds?.catch(() => undefined); // likewise
  return { cluster, crds, users: 0 };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  for (const plane of planesOfRun(project)) registry[keyOf(plane)] ??= start(plane);
  const KEY = keyOf(planeOf(project));
  const shared = registry[KEY]!;
  shared.users++;
  const cluster = await shared.cluster;
  project.provide('kubeconfig', cluster.kubeconfig);
  project.provide('binDir', cluster.binDir);
  await shared.crds;
  project.provide('crdsInstalled', shared.crds !== undefined);
  return async () => {
    if (--shared.users === 0) {
      registry[KEY] = undefined;
      await cluster.stop();
    }
  };
}
