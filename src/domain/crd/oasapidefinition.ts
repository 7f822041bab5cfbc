// GwOasApiDefinition: an OAS API configuration. The OpenAPI 3.0.3 document with its x-gw-api-gateway section lives
// in a ConfigMap (spec.gwOAS.configmapRef); the resource adds what only a cluster knows: which context, and
// certificates kept in Secrets. Domain, listen path, target and enabled are read from the document into status.
import { z } from 'zod';
import { ConfigMapKeyRef, ContextRef, LinkedResource, ObjectRef, syncedStatusFields } from './meta.ts';
import { readinessColumns, syncStatusColumn, type KindDefinition } from './kind.ts';

/**
 * The certificate settings of the OAS-based kinds (Tyk's v1.x field names). `secretNote` (default none) ends
 * the description of every field naming a kubernetes.io/tls Secret: GwOasApiDefinition uploads those Secrets,
 * GwStreamsApiDefinition refuses them (certificates by id only, as gw's design says).
 */
export function certificateSettings(secretNote?: string) {
  const secrets = (text: string): string => (secretNote ? `${text} ${secretNote}` : text);
  return {
    clientCertificate: z
      .object({
        enabled: z.boolean().describe('Require client certificates (client mTLS).'),
        allowlist: z
          .array(z.string().min(1))
          .optional()
          .describe(secrets('kubernetes.io/tls Secrets (same namespace) holding the allowed client certificates.')),
      })
      .optional(),
    customDomain: z
      .object({
        enabled: z.boolean(),
        name: z.string().describe('Custom domain the API answers on.'),
        certificates: z.array(z.string()).optional().describe('Certificate ids served for the domain.'),
        certificatesRef: z.array(z.string().min(1)).optional().describe(secrets('kubernetes.io/tls Secrets (same namespace) served for the domain.')),
      })
      .optional(),
    certificatePinning: z
      .object({
        enabled: z.boolean(),
        domainToPublicKeysMapping: z
          .array(
            z.object({
              domain: z.string(),
              publicKeys: z.array(z.string()).optional().describe('Public key ids.'),
              publicKeyRefs: z
                .array(z.string().min(1))
                .optional()
                .describe(secrets('kubernetes.io/tls Secrets (same namespace) whose certificates hold the pinned public keys.')),
            }),
          )
          .optional(),
      })
      .optional(),
    mutualTLS: z
      .object({
        enabled: z.boolean().describe('Upstream mTLS.'),
        domainToCertificateMapping: z
          .array(
            z.object({
              domain: z.string(),
              certificateID: z.string().optional(),
              certificateRef: z.string().min(1).optional().describe(secrets('kubernetes.io/tls Secret (same namespace) presented to the upstream.')),
            }),
          )
          .optional(),
      })
      .optional(),
  };
}

export const OasCertificateSettings = certificateSettings();

export const GwOasApiDefinitionSpec = z.object({
  gwOAS: z
    .object({ configmapRef: ConfigMapKeyRef.describe('ConfigMap key holding the OAS API definition (JSON).') })
    .describe('Where the OAS API definition is kept.'),
  contextRef: ContextRef.optional(),
  categories: z.array(z.string()).optional().describe('Categories of the API, for grouping.'),
  ...OasCertificateSettings,
  versioning: z
    .object({
      enabled: z.boolean(),
      name: z.string().optional().describe('Version name of this (base) API.'),
      default: z.string().optional().describe('Version served when a request names none.'),
      location: z.enum(['header', 'url-param', 'url']).optional(),
      key: z.string().optional(),
      fallbackToDefault: z.boolean().optional(),
      stripVersioningData: z.boolean().optional(),
      urlVersioningPattern: z.string().optional(),
      versions: z
        .array(z.object({ name: z.string(), gwOasApiDefinitionRef: ObjectRef }))
        .optional()
        .describe('Child versions: other GwOasApiDefinitions.'),
    })
    .optional(),
});

export const OasStatusFields = {
  id: z.string().optional().describe('Id of the API on the gateway or dashboard.'),
  name: z.string().optional(),
  domain: z.string().optional(),
  listenPath: z.string().optional(),
  enabled: z.boolean().optional(),
  ...syncedStatusFields,
  latestConfigMapHash: z.string().optional().describe('sha256 of the ConfigMap value last synced.'),
  linkedByPolicies: z.array(LinkedResource).optional().describe('SecurityPolicies granting access to this API.'),
};

export const GwOasApiDefinitionStatus = z.object({
  ...OasStatusFields,
  targetURL: z.string().optional(),
  ingressTemplate: z.boolean().optional().describe('The API is a template for Ingress resources (label gw.gw.io/template=true) and is not synced itself.'),
  ingresses: z.array(z.string()).optional().describe('Ingresses (namespace/name) made from this template.'),
  versioningStatus: z
    .object({
      isVersionedAPI: z.boolean().optional().describe('A base API lists this API as one of its versions (spec.versioning.versions).'),
      baseAPIVersionContextRef: ObjectRef.optional().describe('The base API listing it.'),
      isDefaultVersion: z.boolean().optional().describe("It is the base API's default version."),
    })
    .optional()
    .describe("Set on an API a base GwOasApiDefinition lists as a version (Tyk Operator's versioningStatus)."),
});

export const gwOasApiDefinitionKind: KindDefinition = {
  kind: 'GwOasApiDefinition',
  plural: 'gwoasapidefinitions',
  shortNames: ['gwoas'],
  description: 'GwOasApiDefinition is an OAS (OpenAPI 3.0.3 + x-gw-api-gateway) API configuration kept in a ConfigMap.',
  spec: GwOasApiDefinitionSpec,
  status: GwOasApiDefinitionStatus,
  printerColumns: [
    { name: 'Domain', type: 'string', jsonPath: '.status.domain' },
    { name: 'ListenPath', type: 'string', jsonPath: '.status.listenPath' },
    { name: 'Proxy.TargetURL', type: 'string', jsonPath: '.status.targetURL' },
    { name: 'Enabled', type: 'boolean', jsonPath: '.status.enabled' },
    syncStatusColumn,
    { name: 'IngressTemplate', type: 'boolean', jsonPath: '.status.ingressTemplate' },
    ...readinessColumns,
  ],
};
