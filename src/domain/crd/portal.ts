// The classic portal kinds: APIDescription (documentation of an API), PortalAPICatalogue (the catalogue of
// published APIs, one per organisation) and PortalConfig (portal settings). They talk to the dashboard only
// (licensed mode); in ce mode the operator marks them Ready=False LicensedModeRequired.
// gw's design leaves their specs open: we model the fields their purpose needs and keep the rest as written.
import { z } from 'zod';
import { ConfigMapKeyRef, Conditions, ContextRef, LinkedResource, ObjectRef, syncedStatusFields } from './meta.ts';
import { readinessColumns, syncStatusColumn, type KindDefinition } from './kind.ts';

const open = { 'x-kubernetes-preserve-unknown-fields': true };

/** The API a catalogue entry documents (its api_id on the dashboard). */
export const PortalApiRef = z.object({
  kind: z.enum(['ApiDefinition', 'GwOasApiDefinition']).default('ApiDefinition').describe('Kind of the API resource.'),
  name: z.string().min(1).describe('Name of the API resource.'),
  namespace: z.string().optional().describe("Namespace of the API resource; empty means the APIDescription's own namespace."),
});

export const APIDescriptionSpec = z
  .looseObject({
    name: z.string().min(1).describe('Name shown in the portal catalogue.'),
    short_description: z.string().optional(),
    long_description: z.string().optional().describe('Markdown shown on the catalogue page.'),
    show: z.boolean().optional().describe('Show the API in the catalogue.'),
    version: z.string().optional(),
    is_keyless: z.boolean().optional().describe('Keyless API: the portal offers no key request.'),
    auth_type: z.string().optional().describe('Authentication shown to developers, for example keyless, authToken, jwt.'),
    policyRef: ObjectRef.optional().describe('SecurityPolicy developers request keys for; it must be synced (status.pol_id).'),
    apiRef: PortalApiRef.optional().describe('ApiDefinition or GwOasApiDefinition this documentation describes; it must be synced.'),
    documentation: z
      .looseObject({
        doc_type: z.enum(['swagger', 'swagger_custom_url', 'graphql']).optional(),
        documentation: z.string().optional().describe('Base64-encoded documentation document (inline).'),
        link_documentation: z.string().optional().describe('URL of the documentation when doc_type is swagger_custom_url.'),
        configMapRef: ConfigMapKeyRef.optional().describe('ConfigMap key holding the document as plain text (JSON or YAML); wins over the inline document.'),
      })
      .meta(open)
      .optional(),
    contextRef: ContextRef.optional(),
  })
  .meta(open);

export const PortalAPICatalogueSpec = z
  .looseObject({
    org_id: z.string().optional().describe("Organisation; default: the context's."),
    email: z.string().optional().describe('Contact e-mail of the catalogue.'),
    apis: z
      .array(
        z
          .looseObject({
            apiDescriptionRef: ObjectRef.describe('APIDescription published in the catalogue; its fields win over the ones inline.'),
            policyRef: ObjectRef.optional().describe('SecurityPolicy developers request keys for.'),
          })
          .meta(open),
      )
      .optional(),
    contextRef: ContextRef.optional(),
  })
  .meta(open);

/** Tyk's PortalConfig spec; its oauth_usage_limit, enable_dcr and dcr_options pass through the open spec as written. */
export const PortalConfigSpec = z
  .looseObject({
    signup_fields: z.array(z.string()).optional().describe('Extra fields a developer fills in at sign-up.'),
    key_request_fields: z.array(z.string()).optional().describe('Extra fields a developer fills in when requesting a key.'),
    require_key_approval: z.boolean().optional(),
    secure_key_approval: z.boolean().optional(),
    redirect_on_key_request: z.boolean().optional(),
    redirect_to: z.string().optional(),
    enable_multi_selection: z.boolean().optional(),
    disable_login: z.boolean().optional(),
    disable_signup: z.boolean().optional(),
    disable_auto_login: z.boolean().optional(),
    catalogue_login_only: z.boolean().optional(),
    email: z.string().optional(),
    mail_options: z.looseObject({}).meta(open).optional().describe("Sender and e-mail copy (Tyk's mail_options), kept as written."),
    override: z.boolean().optional(),
    contextRef: ContextRef.optional(),
  })
  .meta(open);

export const APIDescriptionStatus = z.object({
  linked_by_catalogues: z.array(LinkedResource).optional().describe('PortalAPICatalogues listing this description; its deletion waits while any does.'),
  conditions: Conditions.optional(),
  observedGeneration: z.int().min(0).optional(),
});

export const PortalAPICatalogueStatus = z.object({
  id: z.string().optional().describe('Id of the catalogue on the dashboard.'),
  documents: z
    .array(
      z.object({
        apiDescription: z.string().describe('namespace/name of the APIDescription.'),
        id: z.string().describe('Id of its documentation on the dashboard.'),
        hash: z.string().describe('sha256 of the documentation sent.'),
      }),
    )
    .optional()
    .describe('Documentation uploaded for the entries (uploaded again only when it changes).'),
  ...syncedStatusFields,
});

export const PortalConfigStatus = z.object({
  id: z.string().optional().describe('Id of the configuration on the dashboard.'),
  ...syncedStatusFields,
});

export const apiDescriptionKind: KindDefinition = {
  kind: 'APIDescription',
  plural: 'apidescriptions',
  shortNames: ['gwdescs'],
  description: 'APIDescription is the classic portal documentation of an API.',
  spec: APIDescriptionSpec,
  status: APIDescriptionStatus,
  printerColumns: [{ name: 'APIName', type: 'string', jsonPath: '.spec.name' }, ...readinessColumns],
};

export const portalAPICatalogueKind: KindDefinition = {
  kind: 'PortalAPICatalogue',
  plural: 'portalapicatalogues',
  shortNames: ['gwcatalogues'],
  description: 'PortalAPICatalogue is the classic portal API catalogue of an organisation.',
  spec: PortalAPICatalogueSpec,
  status: PortalAPICatalogueStatus,
  // Tyk's one column (its sync outcome is in status.latestTransaction and the Ready condition).
  printerColumns: [{ name: 'ID', type: 'string', jsonPath: '.status.id' }, ...readinessColumns],
};

export const portalConfigKind: KindDefinition = {
  kind: 'PortalConfig',
  plural: 'portalconfigs',
  shortNames: ['gwportalconfigs'],
  description: 'PortalConfig is the classic portal configuration of an organisation.',
  spec: PortalConfigSpec,
  status: PortalConfigStatus,
  printerColumns: [{ name: 'ID', type: 'string', jsonPath: '.status.id' }, syncStatusColumn, ...readinessColumns],
};
