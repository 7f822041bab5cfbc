// The operator's informers for the gw kinds, ConfigMaps, TLS Secrets and OperatorContexts (in WATCH_NAMESPACE or
// all), with the indexes between them (cluster/indexes.ts) and the Ingress controller's informers (ingress/watch.ts).
import type { Informer } from '../../kube/informer.ts';
import type { Manager } from '../../kube/manager.ts';
import type { KubeObject } from '../../kube/object.ts';
import { CoreResources, type ResourceType } from '../../kube/resource.ts';
import { addIndexes } from '../cluster/indexes.ts';
import {
  GwResources,
  type ApiDefinitionObject,
  type ConfigMapObject,
  type OasApiDefinitionObject,
  type OperatorContextObject,
  type SecretObject,
  type SecurityPolicyObject,
  type StreamsApiDefinitionObject,
  type SubGraphObject,
  type SuperGraphObject,
} from '../cluster/resources.ts';
import { ingressInformers, type IngressInformers } from '../ingress/watch.ts';
import { TLS_SECRET_SELECTOR } from '../sync/certificate-secrets.ts';

export interface OperatorInformers {
  apis: Informer<ApiDefinitionObject>;
  oas: Informer<OasApiDefinitionObject>;
  streams: Informer<StreamsApiDefinitionObject>;
  policies: Informer<SecurityPolicyObject>;
  contexts: Informer<OperatorContextObject>;
  configMaps: Informer<ConfigMapObject>;
  /** kubernetes.io/tls Secrets only. */
  secrets: Informer<SecretObject>;
  subgraphs: Informer<SubGraphObject>;
  supergraphs: Informer<SuperGraphObject>;
  ingress: IngressInformers;
}

export function operatorInformers(manager: Manager, watchNamespaces: string[]): OperatorInformers {
  const scoped = <T extends KubeObject>(resource: ResourceType, fieldSelector?: string): Informer<T> =>
    manager.informer<T>(resource, { namespaces: watchNamespaces, ...(fieldSelector ? { fieldSelector } : {}) });
  const gw = {
    apis: scoped<ApiDefinitionObject>(GwResources.apiDefinition),
    oas: scoped<OasApiDefinitionObject>(GwResources.oasApiDefinition),
    streams: scoped<StreamsApiDefinitionObject>(GwResources.streamsApiDefinition),
    policies: scoped<SecurityPolicyObject>(GwResources.securityPolicy),
    contexts: scoped<OperatorContextObject>(GwResources.operatorContext),
    configMaps: scoped<ConfigMapObject>(CoreResources.configMap),
    secrets: scoped<SecretObject>(CoreResources.secret, TLS_SECRET_SELECTOR),
    subgraphs: scoped<SubGraphObject>(GwResources.subGraph),
    supergraphs: scoped<SuperGraphObject>(GwResources.superGraph),
  };
  const { apis, oas, policies, supergraphs, streams, configMaps } = gw;
  addIndexes({ apis: apis.cache, oas: oas.cache, policies: policies.cache, supergraphs: supergraphs.cache, streams: streams.cache });
  return { ...gw, ingress: ingressInformers(manager, watchNamespaces, { apis, oas, configMaps }) };
}
