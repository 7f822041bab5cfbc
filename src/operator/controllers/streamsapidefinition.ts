// GwStreamsApiDefinition: an async (streams) API, synced as an OAS API whose document carries x-gw-streaming
// (translate/streams.ts), its document kept in a ConfigMap exactly as a GwOasApiDefinition's (document-api.ts:
// waiting, refusals, status, links, deletion). Certificates by id only: ids in the resource's certificate settings
// are written into the document as for GwOasApiDefinition; a setting naming a Secret is Ready=False InvalidSpec
// naming the field (for a cluster without the admission webhook), and nothing is written.
import type { Cache } from '../../kube/cache.ts';
import { InvalidSpecError } from '../sync/errors.ts';
import { FINALIZERS, GwResources, type ConfigMapObject, type SecurityPolicyObject, type StreamsApiDefinitionObject } from '../cluster/resources.ts';
import type { SyncKind } from '../sync/sync.ts';
import { withOasCertificates } from '../translate/oas-certificates.ts';
import { parseStreamsDocument, streamsDefaultId, streamsSecretRefusals } from '../translate/streams.ts';
import { documentApiKind } from './document-api.ts';

export function streamsApiDefinitionKind(
  streams: Cache<StreamsApiDefinitionObject>,
  configMaps: Cache<ConfigMapObject>,
  policies: Cache<SecurityPolicyObject>,
): SyncKind<StreamsApiDefinitionObject> {
  return documentApiKind({
    kind: 'GwStreamsApiDefinition',
    resource: GwResources.streamsApiDefinition,
    finalizer: FINALIZERS.streamsApiDefinition,
    cache: streams,
    configMaps,
    policies,
    parse: parseStreamsDocument,
    defaultId: (o) => streamsDefaultId(o.metadata.namespace, o.metadata.name),
    finish: (o, document) => {
      const refused = streamsSecretRefusals(o.spec);
      if (refused.length > 0) throw new InvalidSpecError(refused.map((r) => `${r.field}: ${r.message}`).join('; '));
      return withOasCertificates(document, o.spec, (secret) => {
        throw new InvalidSpecError(`certificate Secret ${secret}: a GwStreamsApiDefinition takes certificates by id only`);
      });
    },
    summary: ['name', 'domain', 'listenPath', 'enabled'],
  });
}
