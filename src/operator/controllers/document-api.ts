// What GwOasApiDefinition and GwStreamsApiDefinition share: an OAS API on the gateway whose document is kept in a
// ConfigMap (found by namespace AND name; Tyk matched names only). Waits, with a condition, while the
// ConfigMap is missing; refuses a key that is absent or a document the kind's parser refuses. Status shows the
// document's summary (the kubectl get columns), the ConfigMap value's hash and the policies granting it; a policy
// granting it blocks its deletion. A kind supplies only what differs (DocumentApiOptions): its names, how its
// document is parsed and finished (certificates), its default id and which summary fields its status has.
import type { Cache } from '../../kube/cache.ts';
import type { ResourceType } from '../../kube/resource.ts';
import type { Definition } from '../../mgmt/client.ts';
import { contentHash } from '../../domain/canonical-json.ts';
import type { ResolvedContext } from '../sync/context.ts';
import { InvalidSpecError, WaitingError } from '../sync/errors.ts';
import { configMapKeyOf, configMapRefOf, type DocumentApiObject } from '../cluster/indexes.ts';
import type { ConfigMapObject, SecurityPolicyObject } from '../cluster/resources.ts';
import type { SyncKind } from '../sync/sync.ts';
import { oasApiId, oasPayload, oasSummary, type OasSummary } from '../translate/oas.ts';
import { describeLinks, policiesGranting } from './links.ts';

export interface DocumentApiOptions<O extends DocumentApiObject> {
  kind: 'GwOasApiDefinition' | 'GwStreamsApiDefinition';
  resource: ResourceType;
  finalizer: string;
  cache: Cache<O>;
  configMaps: Cache<ConfigMapObject>;
  policies: Cache<SecurityPolicyObject>;
  /** The ConfigMap value as a document; throws InvalidSpecError naming `where` ("ConfigMap ns/name key k"). */
  parse(text: string, where: string): Definition;
  /** The resource's deterministic id, used when its document sets no info.id. */
  defaultId(object: O): string;
  /** The parsed document made ready for the gateway (the resource's certificate settings written in). */
  finish(object: O, document: Definition, context: ResolvedContext, signal?: AbortSignal): Promise<Definition> | Definition;
  /** The summary fields the kind's status has. */
  summary: readonly (keyof OasSummary)[];
  templateStatus?(object: O): Record<string, unknown> | undefined;
}

export function documentApiKind<O extends DocumentApiObject>(options: DocumentApiOptions<O>): SyncKind<O> {
  const { kind, configMaps, policies } = options;
  /** The ConfigMap value: throws WaitingError (no ConfigMap) or InvalidSpecError (no such key). */
  const source = (o: O): { text: string; where: string } => {
    const cmKey = configMapKeyOf(o);
    const { ref, field } = configMapRefOf(o);
    const configMap = configMaps.get(cmKey);
    if (!configMap) throw new WaitingError(`ConfigMap ${cmKey} (${field}) does not exist`);
    const text = configMap.data?.[ref.keyName];
    if (text === undefined) throw new InvalidSpecError(`ConfigMap ${cmKey} has no key ${ref.keyName} (${field}.keyName)`);
    return { text, where: `ConfigMap ${cmKey} key ${ref.keyName}` };
  };
  const document = (o: O): Definition => {
    const { text, where } = source(o);
    return options.parse(text, where);
  };
  const summaryOf = (values: Partial<Record<keyof OasSummary, unknown>>): Record<string, unknown> =>
    Object.fromEntries(options.summary.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
  return {
    kind,
    resource: options.resource,
    finalizer: options.finalizer,
    mirrorKind: 'oas',
    cache: options.cache,
    idOf: (o) => {
      try {
        return oasApiId(document(o), options.defaultId(o));
      } catch {
        return o.status?.id ?? options.defaultId(o); // the document's problem is reported by desired()
      }
    },
    desired: async (o, context, id, signal) => oasPayload(await options.finish(o, document(o), context, signal), id, context.gateway.env.org),
    kindStatus: (o, id, desired) => {
      let configMapHash = o.status?.latestConfigMapHash;
      try {
        configMapHash = contentHash(source(o).text);
      } catch {
        // missing ConfigMap or key: keep what was last synced
      }
      return {
        ...summaryOf(desired ? oasSummary(desired) : (o.status ?? {})),
        ...((id ?? o.status?.id) ? { id: id ?? o.status?.id } : {}),
        ...(configMapHash ? { latestConfigMapHash: configMapHash } : {}),
        linkedByPolicies: policiesGranting(policies, kind, o),
      };
    },
    deletionBlockers: (o) => describeLinks(policiesGranting(policies, kind, o)),
    ...(options.templateStatus ? { templateStatus: (o: O) => options.templateStatus?.(o) } : {}),
    get: (client, id, signal) => client.getOasApi(id, signal),
    put: (client, id, payload, signal) => client.putOasApi(id, payload, signal),
    remove: (client, id, signal) => client.deleteOasApi(id, signal),
  };
}
