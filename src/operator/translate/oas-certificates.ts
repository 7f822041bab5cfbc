// GwOasApiDefinition's certificate settings (the resource's clientCertificate, customDomain, certificatePinning,
// mutualTLS: Tyk's v1.x field names) -> the OAS document's x-gw-api-gateway sections. Pure. A section set on
// the resource replaces the document's (the resource is where a cluster keeps its certificates, as with Tyk,
// which writes server.clientCertificates.enabled from the resource); ids named directly and the Secrets' ids
// (resolved beforehand: certificate-secrets.ts) are joined:
//   clientCertificate{enabled, allowlist[Secret]}               -> server.clientCertificates{enabled, allowlist[id]}
//   customDomain{enabled, name, certificates[], certificatesRef[]} -> server.customDomain{enabled, name, certificates}
//   certificatePinning{enabled, domainToPublicKeysMapping[{domain, publicKeys[], publicKeyRefs[]}]}
//                                                               -> upstream.certificatePinning{..., publicKeys}
//   mutualTLS{enabled, domainToCertificateMapping[{domain, certificateID | certificateRef}]}
//                                                               -> upstream.mutualTLS{..., certificate}
import type { z } from 'zod';
import type { GwOasApiDefinitionSpec } from '../../domain/crd/oasapidefinition.ts';
import type { Definition } from '../../mgmt/client.ts';
import type { SecretReference } from '../sync/certificate-secrets.ts';

/** The certificate settings (GwOasApiDefinition's; GwStreamsApiDefinition has the same shape). */
type Spec = Pick<z.infer<typeof GwOasApiDefinitionSpec>, 'clientCertificate' | 'customDomain' | 'certificatePinning' | 'mutualTLS'>;
const X = 'x-gw-api-gateway';

/** Every Secret the resource names, with the field naming it. */
export function oasCertificateSecretReferences(spec: Spec): SecretReference[] {
  return [
    ...(spec.customDomain?.certificatesRef ?? []).map((name, i) => ({ name, field: `spec.customDomain.certificatesRef[${i}]` })),
    ...(spec.clientCertificate?.allowlist ?? []).map((name, i) => ({ name, field: `spec.clientCertificate.allowlist[${i}]` })),
    ...(spec.mutualTLS?.domainToCertificateMapping ?? []).flatMap((m, i) =>
      m.certificateRef ? [{ name: m.certificateRef, field: `spec.mutualTLS.domainToCertificateMapping[${i}].certificateRef` }] : [],
    ),
    ...(spec.certificatePinning?.domainToPublicKeysMapping ?? []).flatMap((m, i) =>
      (m.publicKeyRefs ?? []).map((name, j) => ({ name, field: `spec.certificatePinning.domainToPublicKeysMapping[${i}].publicKeyRefs[${j}]` })),
    ),
  ];
}

/** The document with the resource's certificate sections written into its extension. */
export function withOasCertificates(document: Definition, spec: Spec, certificate: (secretName: string) => string): Definition {
  const { clientCertificate, customDomain, certificatePinning, mutualTLS } = spec;
  if (!clientCertificate && !customDomain && !certificatePinning && !mutualTLS) return document;
  const ext = (document[X] ?? {}) as Record<string, unknown> & { server?: Record<string, unknown>; upstream?: Record<string, unknown> };
  const server = { ...ext.server };
  const upstream = { ...ext.upstream };
  const joined = (ids: string[] | undefined, secrets: string[] | undefined): string[] => [...new Set([...(ids ?? []), ...(secrets ?? []).map(certificate)])];
  if (clientCertificate) server.clientCertificates = { enabled: clientCertificate.enabled, allowlist: joined(undefined, clientCertificate.allowlist) };
  if (customDomain)
    server.customDomain = {
      enabled: customDomain.enabled,
      name: customDomain.name,
      certificates: joined(customDomain.certificates, customDomain.certificatesRef),
    };
  if (certificatePinning) {
    upstream.certificatePinning = {
      enabled: certificatePinning.enabled,
      domainToPublicKeysMapping: (certificatePinning.domainToPublicKeysMapping ?? []).map((m) => ({
        domain: m.domain,
        publicKeys: joined(m.publicKeys, m.publicKeyRefs),
      })),
    };
  }
  if (mutualTLS) {
    upstream.mutualTLS = {
      enabled: mutualTLS.enabled,
      domainToCertificateMapping: (mutualTLS.domainToCertificateMapping ?? []).map((m) => ({
        domain: m.domain,
        certificate: m.certificateRef ? certificate(m.certificateRef) : (m.certificateID ?? ''),
      })),
    };
  }
  return { ...document, [X]: { ...ext, server, upstream } };
}
