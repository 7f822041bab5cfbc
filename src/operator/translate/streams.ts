// GwStreamsApiDefinition -> the OAS document the gateway stores: an OAS document (translate/oas.ts: x-gw-api-gateway
// required, info.id and orgId set) that must also carry x-gw-streaming, checked as the gateway checks it
// (api/streaming.ts) so a stream the gateway cannot run is refused here, naming its field, before any write. Also
// the kind's two rules of its own:
//   - its default id is base64url("streams:<namespace>/<name>"), so a GwOasApiDefinition and a
//     GwStreamsApiDefinition of the same name never share an API (idFor("<namespace>/<name>") cannot start so:
//     namespaces have no colon);
//   - certificates by id only (gw's design): a certificate setting naming a Secret is refused, naming the field and
//     the id field to use instead. Shared by the controller (a condition) and the admission webhook.
// Pure.
import type { z } from 'zod';
import type { GwStreamsApiDefinitionSpec } from '../../domain/crd/streamsapidefinition.ts';
import { parseStreamingExtension, STREAMS_EXTENSION } from '../../domain/streaming.ts';
import { jmespathQueryProblem } from '../../jmespath/query.ts';
import type { Definition } from '../../mgmt/client.ts';
import { InvalidSpecError } from '../sync/errors.ts';
import { parseOasDocument } from './oas.ts';
import { oasCertificateSecretReferences } from './oas-certificates.ts';

export function parseStreamsDocument(text: string, where: string): Definition {
  const document = parseOasDocument(text, where);
  if (!(STREAMS_EXTENSION in document)) throw new InvalidSpecError(`${where} must contain the ${STREAMS_EXTENSION} section`);
  const checked = parseStreamingExtension(document[STREAMS_EXTENSION], { jmespathQuery: jmespathQueryProblem });
  if ('problem' in checked) throw new InvalidSpecError(`${where}: ${checked.problem}`);
  return document;
}

export function streamsDefaultId(namespace: string | undefined, name: string): string {
  return Buffer.from(`streams:${namespace ?? ''}/${name}`).toString('base64url');
}

/** Where the id goes instead of each Secret field (by the field's last name). */
const ID_FIELD: Record<string, string> = {
  certificatesRef: 'spec.customDomain.certificates',
  allowlist: `server.clientCertificates.allowlist of the document's x-gw-api-gateway (leave spec.clientCertificate unset)`,
  certificateRef: 'certificateID',
  publicKeyRefs: 'publicKeys',
};

export interface SecretRefusal {
  field: string;
  message: string;
}

/** Every certificate setting naming a Secret, each refused with the field to use instead. */
export function streamsSecretRefusals(spec: z.infer<typeof GwStreamsApiDefinitionSpec>): SecretRefusal[] {
  return oasCertificateSecretReferences(spec).map(({ field }) => {
    const name = /\.([A-Za-z]+)(\[\d+\])?$/.exec(field)?.[1] ?? '';
    return {
      field,
      message: `a GwStreamsApiDefinition takes certificates by id only, not from Secrets: set the certificate id in ${ID_FIELD[name] ?? 'the id field'}`,
    };
  });
}
