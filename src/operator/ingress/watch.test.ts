import { describe, expect, it } from 'vitest';
import { Cache } from '../../kube/cache.ts';
import type { Controller } from '../../kube/controller.ts';
import type { InformerHandlers } from '../../kube/informer.ts';
import type { KubeObject } from '../../kube/object.ts';
import { addIngressIndexes } from './ingress-indexes.ts';
import type { IngressObject } from './kinds.ts';
import { watchIngresses, type ApiInformers, type IngressInformers } from './watch.ts';

type Obj = KubeObject & { spec?: unknown; status?: Record<string, unknown> };

/** An informer as watchIngresses uses it: a real cache and the handlers it registers. */
function fakeInformer(): { cache: Cache<Obj>; handlers: InformerHandlers<Obj>[]; addHandlers(h: InformerHandlers<Obj>): void } {
  const handlers: InformerHandlers<Obj>[] = [];
  return { cache: new Cache<Obj>(), handlers, addHandlers: (h) => void handlers.push(h) };
}

function setup() {
  const ingresses = fakeInformer();
  const informers = { ingresses, classes: fakeInformer(), services: fakeInformer() };
  const owned = { apis: fakeInformer(), oas: fakeInformer(), configMaps: fakeInformer() };
  addIngressIndexes(ingresses.cache as unknown as Cache<IngressObject>, [owned.apis.cache, owned.oas.cache, owned.configMaps.cache]);
  const enqueued: string[] = [];
  const controller = { enqueue: (key: string) => void enqueued.push(key) } as unknown as Controller;
  watchIngresses(informers as unknown as IngressInformers, owned as unknown as ApiInformers, { ingresses: controller, apis: controller, oas: controller });
  const shop: Obj = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'shop', namespace: 'ns', uid: 'u1', generation: 1, annotations: { 'gw.gw.io/template': 'tpl' } },
    spec: {
      rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }],
    },
  };
  ingresses.cache.upsert(shop);
  const update = (old: Obj, object: Obj): string[] => {
    enqueued.length = 0;
    for (const h of owned.apis.handlers) h.onUpdate?.(old, object);
    return [...enqueued];
  };
  const updateIngress = (object: Obj): string[] => {
    enqueued.length = 0;
    for (const h of ingresses.handlers) h.onUpdate?.(shop, object);
    return [...enqueued];
  };
  return { update, updateIngress, shop };
}

const child: Obj = {
  apiVersion: 'gw.gw.io/v1alpha1',
  kind: 'ApiDefinition',
  metadata: {
    name: 'shop-abc',
    namespace: 'ns',
    generation: 2,
    labels: { 'gw.gw.io/ingress': 'shop' },
    ownerReferences: [{ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'shop', uid: 'u1', controller: true }],
  },
  spec: { name: 'x' },
  status: { api_id: 'a1', observedGeneration: 2, latestTransaction: { status: 'Successful', time: 't1' } },
};
const template: Obj = {
  apiVersion: 'gw.gw.io/v1alpha1',
  kind: 'ApiDefinition',
  metadata: { name: 'tpl', namespace: 'ns', generation: 1, labels: { 'gw.gw.io/template': 'true' } },
  spec: { name: 'tpl' },
  status: { ingressTemplate: true, ingresses: [] },
};

describe('Ingress event handlers', () => {
  it('ignore status-only updates of the APIs an Ingress made and of its template', () => {
    const { update } = setup();
    expect(update(child, { ...child, status: { ...child.status, latestTransaction: { status: 'Successful', time: 't2' }, linked_by_policies: [] } })).toEqual(
      [],
    );
    expect(update(template, { ...template, status: { ingressTemplate: true, ingresses: ['ns/shop'] } })).toEqual([]);
  });

  it('enqueue each key once per Ingress event (the Ingress, its rivals and template, before and after)', () => {
    const { updateIngress, shop } = setup();
    expect(updateIngress({ ...shop, metadata: { ...shop.metadata, annotations: { ...shop.metadata.annotations, touch: '1' } } })).toEqual([
      'ns/shop',
      'ns/tpl',
    ]);
    expect(updateIngress({ ...shop, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } })).toEqual([]); // its status
  });

  it('wake the Ingress when its API changes, its sync ends, or its template changes or stops being one', () => {
    const { update } = setup();
    expect(update(child, { ...child, metadata: { ...child.metadata, generation: 3 } })).toEqual(['ns/shop']);
    expect(update(child, { ...child, status: { ...child.status, observedGeneration: 1 } })).toEqual(['ns/shop']);
    expect(update(child, { ...child, status: { ...child.status, latestTransaction: { status: 'Failed' } } })).toEqual(['ns/shop']);
    expect(update(child, { ...child, metadata: { ...child.metadata, labels: {} } })).toEqual(['ns/shop']);
    expect(update(template, { ...template, metadata: { ...template.metadata, generation: 2 } })).toEqual(['ns/shop']);
    expect(update(template, { ...template, metadata: { ...template.metadata, labels: {} } })).toEqual(['ns/shop']);
  });
});
