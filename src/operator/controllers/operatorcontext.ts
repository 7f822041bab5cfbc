// OperatorContext: holds a finalizer so it cannot disappear under the resources using it — deletion waits, with a
// condition and an Event naming them, until none does — checks that it resolves (mode, url, auth, org from spec.env
// or its secretRef), and lists its users in status (linked_*). spec.env.ingress ports are refused by name (Ready=False
// Unsupported and a Warning Event; its users still sync): gw gateways do not open ports per API.
import type { Cache } from '../../kube/cache.ts';
import { setCondition } from '../../kube/conditions.ts';
import type { ReconcileResult, Reconciler } from '../../kube/controller.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ContextResolver } from '../sync/context.ts';
import type { PortalCaches } from '../portal/portal-watch.ts';
import { ContextError } from '../sync/errors.ts';
import { CONTEXT } from '../cluster/indexes.ts';
import {
  FINALIZERS,
  GwResources,
  type ApiDefinitionObject,
  type OasApiDefinitionObject,
  type OperatorContextObject,
  type SecurityPolicyObject,
  type StreamsApiDefinitionObject,
} from '../cluster/resources.ts';
import type { ResourceWriter } from '../sync/writer.ts';

export interface ContextUsers {
  apis: Cache<ApiDefinitionObject>;
  oas: Cache<OasApiDefinitionObject>;
  streams: Cache<StreamsApiDefinitionObject>;
  policies: Cache<SecurityPolicyObject>;
  /** The classic portal kinds (linked_api_descriptions, linked_portal_catalogues, linked_portal_configs). */
  portal?: PortalCaches;
}

const link = (o: KubeObject) => ({ name: o.metadata.name, namespace: o.metadata.namespace ?? '' });

export class OperatorContextReconciler implements Reconciler {
  readonly #contexts: Cache<OperatorContextObject>;
  readonly #users: ContextUsers;
  readonly #resolver: ContextResolver;
  readonly #writer: ResourceWriter;

  constructor(contexts: Cache<OperatorContextObject>, users: ContextUsers, resolver: ContextResolver, writer: ResourceWriter) {
    this.#contexts = contexts;
    this.#users = users;
    this.#resolver = resolver;
    this.#writer = writer;
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const context = this.#contexts.get(key);
    if (!context) return;
    const apis = this.#users.apis.byIndex(CONTEXT, key);
    const oas = this.#users.oas.byIndex(CONTEXT, key);
    const streams = this.#users.streams.byIndex(CONTEXT, key);
    const policies = this.#users.policies.byIndex(CONTEXT, key);
    const descriptions = this.#users.portal?.descriptions.byIndex(CONTEXT, key) ?? [];
    const catalogues = this.#users.portal?.catalogues.byIndex(CONTEXT, key) ?? [];
    const portalConfigs = this.#users.portal?.configs.byIndex(CONTEXT, key) ?? [];
    const users = [
      ...apis.map((o) => `ApiDefinition ${o.metadata.namespace}/${o.metadata.name}`),
      ...oas.map((o) => `GwOasApiDefinition ${o.metadata.namespace}/${o.metadata.name}`),
      ...streams.map((o) => `GwStreamsApiDefinition ${o.metadata.namespace}/${o.metadata.name}`),
      ...policies.map((o) => `SecurityPolicy ${o.metadata.namespace}/${o.metadata.name}`),
    ];
    users.push(
      ...descriptions.map((o) => `APIDescription ${o.metadata.namespace}/${o.metadata.name}`),
      ...catalogues.map((o) => `PortalAPICatalogue ${o.metadata.namespace}/${o.metadata.name}`),
      ...portalConfigs.map((o) => `PortalConfig ${o.metadata.namespace}/${o.metadata.name}`),
    );
    const now = new Date();
    const links = {
      linked_api_definitions: apis.map(link),
      linked_oas_api_definitions: oas.map(link),
      linked_streams_api_definitions: streams.map(link),
      linked_security_policies: policies.map(link),
      ...(this.#users.portal
        ? { linked_api_descriptions: descriptions.map(link), linked_portal_catalogues: catalogues.map(link), linked_portal_configs: portalConfigs.map(link) }
        : {}),
    };

    if (context.metadata.deletionTimestamp) {
      if (!this.#writer.hasFinalizer(context, FINALIZERS.operatorContext)) return;
      if (users.length > 0) {
        const message = `not deleted while ${users.join(', ')} still ${users.length === 1 ? 'uses' : 'use'} it`;
        this.#writer.event(context, 'Warning', 'DeletionBlocked', message);
        await this.#writer.writeStatus(
          GwResources.operatorContext,
          context,
          {
            ...links,
            conditions: setCondition(
              context.status?.conditions,
              { type: 'Ready', status: 'False', reason: 'DeletionBlocked', message, observedGeneration: context.metadata.generation ?? 0 },
              now,
            ),
          },
          signal,
        );
        return { requeueAfterMs: 30_000 };
      }
      await this.#writer.removeFinalizer(GwResources.operatorContext, context, FINALIZERS.operatorContext, signal);
      return;
    }

    await this.#writer.addFinalizer(GwResources.operatorContext, context, FINALIZERS.operatorContext, signal);
    let ready: { status: 'True' | 'False'; reason: string; message: string };
    let target: { mode?: string; url?: string } = {};
    try {
      const resolved = await this.#resolver.resolve(
        {
          metadata: { name: '', namespace: context.metadata.namespace },
          spec: { contextRef: { name: context.metadata.name, namespace: context.metadata.namespace } },
        },
        signal,
      );
      ready = {
        status: 'True',
        reason: 'Resolved',
        message: `${resolved.gateway.env.mode} at ${resolved.gateway.env.url}, used by ${users.length} resource(s)`,
      };
      target = { mode: resolved.gateway.env.mode, url: resolved.gateway.env.url }; // the MODE and URL columns, wherever they came from
    } catch (error) {
      if (!(error instanceof ContextError)) throw error;
      ready = { status: 'False', reason: 'Incomplete', message: error.message };
    }
    const unsupported = unsupportedIngressPort(context);
    if (ready.status === 'True' && unsupported) {
      ready = { status: 'False', reason: 'Unsupported', message: unsupported };
      this.#writer.event(context, 'Warning', 'Unsupported', unsupported);
    }
    await this.#writer.writeStatus(
      GwResources.operatorContext,
      context,
      {
        ...links,
        ...target,
        conditions: setCondition(context.status?.conditions, { ...ready, type: 'Ready', observedGeneration: context.metadata.generation ?? 0 }, now),
      },
      signal,
    );
    if (ready.status === 'False' && ready.reason !== 'Unsupported') return { requeueAfterMs: 30_000 };
  }
}

/**
 * Tyk Operator gives the APIs it builds from Ingresses listen_port = spec.env.ingress.httpPort (httpsPort for TLS
 * hosts) and Tyk Gateway opens those ports; gw gateways serve every API on their own listen_port and
 * http_server_options.https_port, so a port set here would be ignored: it is refused by name instead.
 */
function unsupportedIngressPort(context: OperatorContextObject): string | undefined {
  const ingress = context.spec.env?.ingress;
  const field = ingress?.httpPort !== undefined ? 'httpPort' : ingress?.httpsPort !== undefined ? 'httpsPort' : undefined;
  return field
    ? `spec.env.ingress.${field}: per-API ingress ports are not supported (gw gateways serve every API on their listen_port and http_server_options.https_port); remove it`
    : undefined;
}
