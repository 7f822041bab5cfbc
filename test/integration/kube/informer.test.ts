// src/kube against a real apiserver: informers follow adds, updates and deletes; a silent watch is restarted by
// the watchdog; a watch cut by an apiserver restart resumes, and a resourceVersion etcd has compacted meanwhile
// (410 Gone) makes the informer list again — the events after the restart still arrive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KubeClient } from '../../../src/kube/client.ts';
import { Controller } from '../../../src/kube/controller.ts';
import { KubeApiError } from '../../../src/kube/errors.ts';
import { Informer } from '../../../src/kube/informer.ts';
import type { KubeObject } from '../../../src/kube/object.ts';
import { CoreResources } from '../../../src/kube/resource.ts';
import { startControlPlane, type ControlPlane } from '../../../src/up/controlplane.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { waitUntil } from '../../support/wait.ts';

type ConfigMap = KubeObject & { data?: Record<string, string> };

const log = pino({ level: 'silent' });
const configMap = (namespace: string, name: string, data: Record<string, string> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
});

/**
 * The events of the test's own ConfigMaps, in order. kube-root-ca.crt, which the controller-manager publishes into
 * every namespace whenever it gets to it (late on a loaded machine), is left out.
 */
function record(informer: Informer<ConfigMap>): string[] {
  const seen: string[] = [];
  const published = (o: ConfigMap): boolean => o.metadata.name === 'kube-root-ca.crt';
  informer.addHandlers({
    onAdd: (o) => published(o) || seen.push(`add ${o.metadata.name}`),
    onUpdate: (old, o) => published(o) || seen.push(`update ${o.metadata.name} ${old.data?.v ?? ''}->${o.data?.v ?? ''}`),
    onDelete: (o) => published(o) || seen.push(`delete ${o.metadata.name}`),
  });
  return seen;
}

describe('informer on the shared control plane', () => {
  const ns = useNamespace('inf');
  let client: KubeClient;
  beforeAll(() => {
    client = KubeClient.fromKubeconfig({ kubeconfig: inject('kubeconfig') });
  });

  it('lists what exists, then follows adds, updates (old and new) and deletes, keeping its indexes', async () => {
    await client.create(CoreResources.configMap, configMap(ns.name, 'before', { v: '1', team: 'a' }));
    const informer = new Informer<ConfigMap>(client, CoreResources.configMap, { namespaces: [ns.name], log });
    informer.cache.addIndex('team', (o) => (o.data?.team ? [o.data.team] : []));
    const seen = record(informer);
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.synced();
    expect(seen).toContain('add before');

    await client.create(CoreResources.configMap, configMap(ns.name, 'during', { v: '1', team: 'b' }));
    await client.mergePatch(CoreResources.configMap, ns.name, 'before', { data: { v: '2', team: 'b' } });
    await client.delete(CoreResources.configMap, ns.name, 'during');
    await expect.poll(() => seen.slice(-3)).toEqual(['add during', 'update before 1->2', 'delete during']);
    expect(informer.cache.get(`${ns.name}/before`)?.data?.v).toBe('2');
    expect(informer.cache.byIndex('team', 'b').map((o) => o.metadata.name)).toEqual(['before']);
    expect(informer.cache.byIndex('team', 'a')).toEqual([]);
    stop.abort();
    await running;
  });

  it('restarts a watch that has been silent too long, without listing again', async () => {
    const informer = new Informer<ConfigMap>(client, CoreResources.configMap, { namespaces: [ns.name], watchdogMs: 300, log });
    const seen = record(informer);
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.synced();
    await expect.poll(() => informer.watchesStarted, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    expect(informer.listsDone).toBe(1);
    await client.create(CoreResources.configMap, configMap(ns.name, 'after-restarts'));
    await expect.poll(() => seen).toContain('add after-restarts');
    stop.abort();
    await running;
  });

  it('keeps going when a handler throws', async () => {
    const informer = new Informer<ConfigMap>(client, CoreResources.configMap, { namespaces: [ns.name], log });
    informer.addHandlers({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    const seen = record(informer);
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.synced();
    await client.create(CoreResources.configMap, configMap(ns.name, 'one'));
    await client.create(CoreResources.configMap, configMap(ns.name, 'two'));
    await expect.poll(() => seen).toEqual(expect.arrayContaining(['add one', 'add two']));
    stop.abort();
    await running;
  });

  it('feeds a controller that reconciles every key, never one key twice at once', async () => {
    const informer = new Informer<ConfigMap>(client, CoreResources.configMap, { namespaces: [ns.name], log });
    const active = new Set<string>();
    let overlap = false;
    const reconciled: string[] = [];
    const controller = new Controller(
      {
        reconcile: async (key) => {
          if (active.has(key)) overlap = true;
          active.add(key);
          await new Promise((r) => setTimeout(r, 20));
          reconciled.push(key);
          active.delete(key);
        },
      },
      { name: 'test', workers: 4, log },
    );
    informer.addHandlers({
      onAdd: (o) => controller.enqueue(`${o.metadata.namespace}/${o.metadata.name}`),
      onUpdate: (_o, n) => controller.enqueue(`${n.metadata.namespace}/${n.metadata.name}`),
    });
    const stop = new AbortController();
    const running = Promise.all([informer.run(stop.signal), controller.run(stop.signal)]);
    await informer.synced();
    for (let i = 0; i < 10; i++) await client.create(CoreResources.configMap, configMap(ns.name, `c${i}`, { v: '0' }));
    for (let v = 1; v <= 5; v++) await client.mergePatch(CoreResources.configMap, ns.name, 'c0', { data: { v: String(v) } });
    const ours = (): Set<string> => new Set(reconciled.filter((key) => /\/c\d$/.test(key)));
    await expect.poll(() => ours().size).toBe(10);
    expect(overlap).toBe(false);
    stop.abort();
    await running;
  });
});

describe('informer across an apiserver restart and a 410', () => {
  let plane: ControlPlane;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-restart-plane-'));
    // The watch cache off and compaction every second: a resumed watch from an old resourceVersion gets a real 410.
    plane = await startControlPlane({ dir, binDir: inject('binDir'), apiserverArgs: ['--watch-cache=false', '--etcd-compaction-interval=1s'] });
  });
  afterAll(async () => {
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after the restart, lists again on 410 Gone, and misses nothing', async () => {
    const client = KubeClient.fromKubeconfig({ kubeconfig: plane.kubeconfig });
    await client.create(CoreResources.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'watched' } });
    await client.create(CoreResources.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'noise' } });
    const informer = new Informer<ConfigMap>(client, CoreResources.configMap, { namespaces: ['watched'], log });
    const seen = record(informer);
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await informer.synced();
    const a = await client.create(CoreResources.configMap, configMap('watched', 'a'));
    await expect.poll(() => seen).toContain('add a');

    // Move etcd's revision well past the informer's and wait until the apiserver has compacted it: a list at
    // exactly that revision answers 410 Gone.
    for (let i = 0; i < 20; i++) await client.create(CoreResources.configMap, configMap('noise', `n${i}`));
    await waitUntil(
      "etcd to compact the informer's resourceVersion",
      async () => {
        try {
          await client.list(CoreResources.configMap, 'watched', { resourceVersion: a.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
          return false;
        } catch (error) {
          if (error instanceof KubeApiError && error.gone) return true;
          throw error;
        }
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    await plane.restart('kube-apiserver');

    await client.create(CoreResources.configMap, configMap('watched', 'b'));
    await expect.poll(() => seen, { timeout: 30_000 }).toContain('add b');
    expect(informer.listsDone).toBeGreaterThanOrEqual(2); // the 410 made it list again
    expect(informer.cache.keys().sort()).toEqual(expect.arrayContaining(['watched/a', 'watched/b']));
    stop.abort();
    await running;
  });
});
