// Which keys the operator's events enqueue, and on which controllers:
//   ApiDefinition / GwOasApiDefinition   itself; the policies naming it (they may be waiting for it); its context
//   / GwStreamsApiDefinition
//   SecurityPolicy                       itself; the APIs it names before and after (their links, their deletion)
//   ConfigMap                            the OAS and Streams APIs reading it (namespace and name)
//   Secret (kubernetes.io/tls only)      the APIs, OAS APIs and Ingresses naming it (a rotation reaches the gateway)
//   SecurityPolicy <-> ApiDefinition     also the APIs naming a policy in jwt_default_policies, and the policies an
//                                        API names there before and after (their linked_by_apis)
//   OperatorContext                      itself; every resource naming it
//   SubGraph / SuperGraph                itself; the SuperGraphs composing it and every API it reaches
//                                        (graph-users.ts), on any change including status (a composed SDL)
//   Ingress, IngressClass, Service       the Ingresses concerned (ingress/watch.ts)
//   APIDescription, PortalAPICatalogue, PortalConfig   the classic portal kinds (portal/portal-watch.ts)
// Updates that change only status are not reconciles (the spec's generation, deletion and finalizers are what
// matter), so the operator's own status writes do not feed back.
import type { Controller } from '../../kube/controller.ts';
import { objectKey, type KubeObject } from '../../kube/object.ts';
import { watch, watchAll, watchApi } from '../cluster/event-handlers.ts';
import type { GraphUsers } from '../cluster/graph-users.ts';
import { CONFIG_MAP, CONTEXT, graphRefOf, JWT_POLICIES, OAS_VERSIONS, POLICY_TARGETS, SECRETS, subgraphKeysOf, targetValue } from '../cluster/indexes.ts';
import type { ApiDefinitionObject, ConfigMapObject, OasApiDefinitionObject, SecretObject, SecurityPolicyObject } from '../cluster/resources.ts';
import { meaningful } from '../cluster/update-filter.ts';
import { TLS_SECRETS } from '../ingress/ingress-indexes.ts';
import { watchIngresses } from '../ingress/watch.ts';
import { watchServingApis } from '../controllers/subgraph.ts';
import { contextKeyOf } from '../sync/context.ts';
import { jwtPolicyResources } from '../translate/apidefinition.ts';
import { oasVersionReferences } from '../translate/oas-versioning.ts';
import { apiReferences, type ApiReferenceKind } from '../translate/securitypolicy.ts';
import type { OperatorInformers } from './informers.ts';

export type OperatorControllers = Record<'apis' | 'oas' | 'streams' | 'policies' | 'contexts' | 'ingresses' | 'subgraphs' | 'supergraphs', Controller>;

/** Adds the handlers that turn the informers' events into keys on the controllers (the portal's: portal-watch.ts). */
export function routeEvents(informers: OperatorInformers, c: OperatorControllers, graphUsers: GraphUsers): void {
  const { apis, oas, streams, policies, contexts, configMaps, secrets, subgraphs, supergraphs, ingress } = informers;
  watchIngresses(ingress, { apis, oas, configMaps }, c);

  const referrersOfApi = (kind: ApiReferenceKind, o: KubeObject): void => {
    for (const p of policies.cache.byIndex(POLICY_TARGETS, targetValue(kind, o.metadata.namespace, o.metadata.name))) c.policies.enqueue(objectKey(p));
  };
  const toContext = (o: KubeObject & { spec?: unknown }): void => {
    const key = contextKeyOf(o as Parameters<typeof contextKeyOf>[0]);
    if (key) c.contexts.enqueue(key);
  };
  const apiTargets = (p: SecurityPolicyObject): void => {
    for (const ref of apiReferences(p.metadata.namespace, p.spec)) {
      ({ ApiDefinition: c.apis, GwOasApiDefinition: c.oas, GwStreamsApiDefinition: c.streams })[ref.kind].enqueue(`${ref.namespace}/${ref.name}`);
    }
  };
  // An API naming a graph is in that graph's status (links) and holds its deletion; an API naming a SubGraph is
  // also the upstream of the SuperGraphs composing it.
  const graphOfApi = (o: ApiDefinitionObject): void => {
    const ref = graphRefOf(o);
    if (ref?.startsWith('SuperGraph:')) c.supergraphs.enqueue(ref.slice('SuperGraph:'.length));
    if (!ref?.startsWith('SubGraph:')) return;
    const key = ref.slice('SubGraph:'.length);
    c.subgraphs.enqueue(key);
    const [namespace, name] = key.split('/') as [string, string];
    for (const api of graphUsers.apisReachedBySubgraph({ metadata: { namespace, name } })) if (objectKey(api) !== objectKey(o)) c.apis.enqueue(objectKey(api));
  };
  watchApi(
    apis,
    (o) => c.apis.enqueue(objectKey(o)),
    (o) => {
      referrersOfApi('ApiDefinition', o);
      toContext(o);
      graphOfApi(o);
    },
  );
  watchServingApis(apis, (key) => c.subgraphs.enqueue(key));
  watchAll(subgraphs, (s) => {
    c.subgraphs.enqueue(objectKey(s));
    for (const sg of graphUsers.supergraphsComposing(s)) c.supergraphs.enqueue(objectKey(sg));
    for (const api of graphUsers.apisNaming('SubGraph', s)) c.apis.enqueue(objectKey(api));
  });
  watchAll(supergraphs, (sg, old) => {
    c.supergraphs.enqueue(objectKey(sg));
    // Its SubGraphs, before and after (their linked_by_supergraphs, their deletion).
    for (const key of new Set([...subgraphKeysOf(sg), ...(old ? subgraphKeysOf(old) : [])])) c.subgraphs.enqueue(key);
    for (const api of graphUsers.apisNaming('SuperGraph', sg)) c.apis.enqueue(objectKey(api));
  });
  watchApi(
    oas,
    (o) => c.oas.enqueue(objectKey(o)),
    (o) => {
      referrersOfApi('GwOasApiDefinition', o);
      toContext(o);
      for (const base of oas.cache.byIndex(OAS_VERSIONS, objectKey(o))) c.oas.enqueue(objectKey(base)); // a base API naming it as a version
    },
  );
  // The versions a base names, before and after a change: one it no longer lists may now be deleted, and each
  // one's versioningStatus follows.
  const namedVersions = (o: OasApiDefinitionObject): void =>
    oasVersionReferences(o.spec.versioning, o.metadata.namespace ?? 'default').forEach((r) => c.oas.enqueue(`${r.namespace}/${r.name}`));
  oas.addHandlers({
    onAdd: namedVersions,
    onUpdate: (old, o) => {
      if (JSON.stringify(old.spec.versioning) !== JSON.stringify(o.spec.versioning)) [old, o].forEach(namedVersions);
    },
    onDelete: namedVersions,
  });
  watchApi(
    streams,
    (o) => c.streams.enqueue(objectKey(o)),
    (o) => {
      referrersOfApi('GwStreamsApiDefinition', o);
      toContext(o);
    },
  );
  watch(policies, (p) => {
    c.policies.enqueue(objectKey(p));
    apiTargets(p);
    toContext(p);
    for (const api of apis.cache.byIndex(JWT_POLICIES, objectKey(p))) c.apis.enqueue(objectKey(api)); // waiting for it
  });
  const jwtPolicies = (o: ApiDefinitionObject): void => jwtPolicyResources(o.spec).forEach((key) => c.policies.enqueue(key));
  apis.addHandlers({
    onAdd: jwtPolicies,
    onUpdate: (old, o) => {
      if (!meaningful(old, o)) return;
      jwtPolicies(old);
      jwtPolicies(o);
    },
    onDelete: jwtPolicies,
  });
  const secretUsers = (secret: SecretObject): void => {
    const key = objectKey(secret);
    for (const o of apis.cache.byIndex(SECRETS, key)) c.apis.enqueue(objectKey(o));
    for (const o of oas.cache.byIndex(SECRETS, key)) c.oas.enqueue(objectKey(o));
    for (const o of ingress.ingresses.cache.byIndex(TLS_SECRETS, key)) c.ingresses.enqueue(objectKey(o));
  };
  secrets.addHandlers({
    onAdd: secretUsers,
    onUpdate: (old, secret) => {
      if (old.metadata.resourceVersion !== secret.metadata.resourceVersion) secretUsers(secret);
    },
    onDelete: secretUsers,
  });
  watch(contexts, (ctx) => {
    const key = objectKey(ctx);
    c.contexts.enqueue(key);
    for (const o of apis.cache.byIndex(CONTEXT, key)) c.apis.enqueue(objectKey(o));
    for (const o of oas.cache.byIndex(CONTEXT, key)) c.oas.enqueue(objectKey(o));
    for (const o of streams.cache.byIndex(CONTEXT, key)) c.streams.enqueue(objectKey(o));
    for (const o of policies.cache.byIndex(CONTEXT, key)) c.policies.enqueue(objectKey(o));
  });
  const documentReaders = (cm: ConfigMapObject): void => {
    for (const o of oas.cache.byIndex(CONFIG_MAP, objectKey(cm))) c.oas.enqueue(objectKey(o));
    for (const o of streams.cache.byIndex(CONFIG_MAP, objectKey(cm))) c.streams.enqueue(objectKey(o));
  };
  configMaps.addHandlers({ onAdd: documentReaders, onUpdate: (_old, cm) => documentReaders(cm), onDelete: documentReaders });
}
