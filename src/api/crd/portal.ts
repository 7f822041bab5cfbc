// The classic portal kinds: APIDescription (documentation of an API), PortalAPICatalogue (the catalogue of
// published APIs, one per organisation) and PortalConfig (portal settings). They talk to the dashboard only.
// The seed leaves their specs open: we model the fields their purpose needs and keep the rest as written.
import { z } from 'zod';
import { Conditions, ContextRef, ObjectRef } from './meta.ts';
import type { KindDefinition } from './kind.ts';

const open = { 'x-kubernetes-preserve-unknown-fields': true };

export const APIDescriptionSpec = z
  .looseObject({
    name: z.string().min(1).describe('Name shown in the portal catalogue.'),
    short_description: z.string().optional(),
    long_description: z.string().optional(),
    show: z.boolean().optional().describe('Show the API in the catalogue.'),
    version: z.string().optional(),
    is_keyless: z.boolean().optional(),
    auth_type: z.string().optional().describe('Authentication shown to developers, for example keyless, authToken, jwt.'),
    policyRef: ObjectRef.optional().describe('SecurityPolicy developers request keys for.'),
    documentation: z
      .looseObject({
        doc_type: z.enum(['swagger', 'swagger_custom_url', 'graphql']).optional(),
        documentation: z.string().optional().describe('Base64-encoded documentation document.'),
        link_documentation: z.string().optional().describe('URL of the documentation when doc_type is swagger_custom_url.'),
      })
      .meta(open)
      .optional(),
    contextRef: ContextRef.optional(),
  })
  .meta(open);

export const PortalAPICatalogueSpec = z
  .looseObject({
    org_id: z.string().optional(),
    email: z.string().optional().describe('Contact e-mail of the catalogue.'),
    apis: z
      .array(
        z
          .looseObject({
            apiDescriptionRef: ObjectRef.describe('APIDescription published in the catalogue.'),
            policyRef: ObjectRef.optional().describe('SecurityPolicy developers request keys for.'),
          })
          .meta(open),
      )
      .optional(),
    contextRef: ContextRef.optional(),
  })
  .meta(open);

export const PortalConfigSpec = z
  .looseObject({
    require_key_approval: z.boolean().optional(),
    redirect_on_key_request: z.boolean().optional(),
    redirect_to: z.string().optional(),
    enable_multi_selection: z.boolean().optional(),
    disable_login: z.boolean().optional(),
    disable_signup: z.boolean().optional(),
    disable_auto_login: z.boolean().optional(),
    catalogue_login_only: z.boolean().optional(),
    email: z.string().optional(),
    contextRef: ContextRef.optional(),
  })
  .meta(open);

const PortalStatus = z.object({
  id: z.string().optional().describe('Id of the object on the dashboard.'),
  conditions: Conditions.optional(),
});

export const apiDescriptionKind: KindDefinition = {
  kind: 'APIDescription',
  plural: 'apidescriptions',
  shortNames: ['gwdescs'],
  description: 'APIDescription is the classic portal documentation of an API.',
  spec: APIDescriptionSpec,
  status: PortalStatus,
  printerColumns: [],
};

export const portalAPICatalogueKind: KindDefinition = {
  kind: 'PortalAPICatalogue',
  plural: 'portalapicatalogues',
  shortNames: ['gwcatalogues'],
  description: 'PortalAPICatalogue is the classic portal API catalogue of an organisation.',
  spec: PortalAPICatalogueSpec,
  status: PortalStatus,
  printerColumns: [{ name: 'ID', type: 'string', jsonPath: '.status.id' }],
};

export const portalConfigKind: KindDefinition = {
  kind: 'PortalConfig',
  plural: 'portalconfigs',
  shortNames: ['gwportalconfigs'],
  description: 'PortalConfig is the classic portal configuration of an organisation.',
  spec: PortalConfigSpec,
  status: PortalStatus,
  printerColumns: [],
};
