// The operator's informers for the gw kinds, ConfigMaps, TLS Secrets and OperatorContexts (in WATCH_NAMESPACE or
// all), with the indexes between them (cluster/indexes.ts) and the Ingress controller's informers (ingress/watch.ts).
import type { Informer } from '../../kube/informer.ts';
import type { Manager } from '../../kube/manager.ts';
import { CoreResources } from '../../kube/resource.ts';
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
  const scope = { namespaces: watchNamespaces };
  const apis = manager.informer<ApiDefinitionObject>(GwResources.apiDefinition, scope);
  const oas = manager.informer<OasApiDefinitionObject>(GwResources.oasApiDefinition, scope);
  const streams = manager.informer<StreamsApiDefinitionObject>(GwResources.streamsApiDefinition, scope);
  const policies = manager.informer<SecurityPolicyObject>(GwResources.securityPolicy, scope);
  const contexts = manager.informer<OperatorContextObject>(GwResources.operatorContext, scope);
  const configMaps = manager.informer<ConfigMapObject>(CoreResources.configMap, scope);
  const secrets = manager.informer<SecretObject>(CoreResources.secret, { ...scope, fieldSelector: TLS_SECRET_SELECTOR });
  const subgraphs = manager.informer<SubGraphObject>(GwResources.subGraph, scope);
  const supergraphs = manager.informer<SuperGraphObject>(GwResources.superGraph, scope);
  addIndexes({ apis: apis.cache, oas: oas.cache, policies: policies.cache, supergraphs: supergraphs.cache, streams: streams.cache });
  const ingress = ingressInformers(manager, watchNamespaces, { apis, oas, configMaps });
  return { apis, oas, streams, policies, contexts, configMaps, secrets, subgraphs, supergraphs, ingress };
}
