// Test doubles for the portal controllers' unit tests (src/operator/controllers/portal*.test.ts): an in-memory dashboard
// portal with Tyk's semantics (one catalogue per organisation, documents by id, one configuration) that
// logs every call in order, a ResourceWriter that applies status and finalizer writes to the informer cache the
// way the apiserver and informer would, and a context resolver answering one gateway in the mode asked.
import pino from 'pino';
import type { Cache } from '../../src/kube/cache.ts';
import type { KubeObject } from '../../src/kube/object.ts';
import { objectKey } from '../../src/kube/object.ts';
import type { Definition } from '../../src/mgmt/client.ts';
import type { ContextResolver } from '../../src/operator/sync/context.ts';
import type { GatewayHandle } from '../../src/operator/sync/gateways.ts';
import { PortalClients, type PortalClient } from '../../src/operator/portal/portal-client.ts';
import type { ResourceWriter } from '../../src/operator/sync/writer.ts';
import type { PortalServices } from '../../src/operator/controllers/portal-lifecycle.ts';

export class FakePortal implements PortalClient {
  catalogue: Definition | undefined;
  configuration: Definition | undefined;
  readonly documents = new Map<string, { api_id: string; doc_type: string; documentation: string }>();
  readonly calls: string[] = [];
  /** The next call of these methods throws this error instead (once). */
  readonly failNext = new Map<'createDocumentation' | 'putCatalogue', Error>();
  #next = 0;

  #fail(method: 'createDocumentation' | 'putCatalogue'): void {
    const error = this.failNext.get(method);
    this.failNext.delete(method);
    if (error) throw error;
  }

  async getCatalogue(): Promise<Definition | undefined> {
    this.calls.push('GET catalogue');
    return this.catalogue ? structuredClone(this.catalogue) : undefined;
  }
  async createCatalogue(orgId: string): Promise<string> {
    this.calls.push('POST catalogue');
    this.catalogue = { id: `cat-${++this.#next}`, org_id: orgId, apis: [] };
    return this.catalogue.id as string;
  }
  async putCatalogue(catalogue: Definition): Promise<void> {
    this.calls.push(`PUT catalogue ${((catalogue.apis as unknown[] | undefined) ?? []).length}`);
    this.#fail('putCatalogue');
    this.catalogue = structuredClone(catalogue);
  }
  async createDocumentation(doc: { api_id: string; doc_type: string; documentation: string }): Promise<string> {
    this.#fail('createDocumentation');
    const id = `doc-${++this.#next}`;
    this.calls.push(`POST documentation ${id}`);
    this.documents.set(id, doc);
    return id;
  }
  async hasDocumentation(id: string): Promise<boolean> {
    this.calls.push(`GET documentation ${id}`);
    return this.documents.has(id);
  }
  async deleteDocumentation(id: string): Promise<boolean> {
    this.calls.push(`DELETE documentation ${id}`);
    return this.documents.delete(id);
  }
  async getConfiguration(): Promise<Definition | undefined> {
    this.calls.push('GET configuration');
    return this.configuration ? structuredClone(this.configuration) : undefined;
  }
  async createConfiguration(config: Definition): Promise<string> {
    this.calls.push('POST configuration');
    this.configuration = { ...config, id: `conf-${++this.#next}` };
    return this.configuration.id as string;
  }
  async putConfiguration(config: Definition): Promise<void> {
    this.calls.push('PUT configuration');
    this.configuration = structuredClone(config);
  }
}

export interface FakeCluster {
  events: { reason: string; type: string; message: string; name: string }[];
  writer: ResourceWriter;
  /** Marks an object deleted (deletionTimestamp), as `kubectl delete` does while finalizers hold it. */
  deleting<T extends KubeObject>(cache: Cache<T>, key: string): void;
}

/** A writer over caches: status and finalizer writes land in the cache, a deleted object leaves with its last finalizer. */
export function fakeCluster(caches: Cache<KubeObject>[]): FakeCluster {
  const events: FakeCluster['events'] = [];
  const cacheOf = (object: KubeObject): Cache<KubeObject> => caches.find((c) => c.get(objectKey(object)) !== undefined)!;
  const update = (object: KubeObject, change: (o: KubeObject & { status?: unknown }) => void): void => {
    const cache = cacheOf(object);
    const next = structuredClone(cache.get(objectKey(object))!) as KubeObject & { status?: unknown };
    change(next);
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) cache.remove(objectKey(object));
    else cache.upsert(next);
  };
  const writer = {
    writeStatus: async (_r: unknown, object: KubeObject, status: object) => {
      update(object, (o) => (o.status = structuredClone(status)));
      return true;
    },
    hasFinalizer: (object: KubeObject, finalizer: string) => object.metadata.finalizers?.includes(finalizer) ?? false,
    addFinalizer: async (_r: unknown, object: KubeObject, finalizer: string) => {
      if (object.metadata.finalizers?.includes(finalizer)) return;
      update(object, (o) => (o.metadata.finalizers = [...(o.metadata.finalizers ?? []), finalizer]));
    },
    removeFinalizer: async (_r: unknown, object: KubeObject, finalizer: string) =>
      update(object, (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== finalizer))),
    event: (object: KubeObject, type: string, reason: string, message: string) => events.push({ type, reason, message, name: object.metadata.name }),
  } as unknown as ResourceWriter;
  return {
    events,
    writer,
    deleting: (cache, key) => {
      const object = structuredClone(cache.get(key)!);
      object.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
      cache.upsert(object);
    },
  };
}

/** Services for the portal controllers: one gateway in `mode`, the fake portal behind it. */
export function portalServices(portal: FakePortal, writer: ResourceWriter, mode: 'ce' | 'pro' = 'pro'): PortalServices {
  const gateway = { key: 'g', env: { mode, url: 'http://dashboard.test', auth: 'k', org: 'org-1', insecureSkipVerify: false } } as unknown as GatewayHandle;
  const contexts = { resolve: async () => ({ context: undefined, gateway }) } as unknown as ContextResolver;
  return { contexts, writer, portal: new PortalClients(() => portal), log: pino({ level: 'silent' }), resyncMs: 60_000 };
}
