// OperatorContext: which gateway or dashboard, which organisation, which identity a resource is synced with.
// A resource naming it in contextRef uses the context's settings instead of the operator's defaults; fields left
// out of spec.env are read from the Secret named by spec.secretRef (keys GW_MODE, GW_URL, GW_AUTH, GW_ORG, ...).
import { z } from 'zod';
import { Conditions, LinkedResource, ObjectRef } from './meta.ts';
import { readinessColumns, type KindDefinition } from './kind.ts';

export const OperatorMode = z.enum(['ce', 'pro']).describe('ce: the open-source gateway API; pro: the dashboard API.');

export const OperatorContextSpec = z.object({
  env: z
    .object({
      mode: OperatorMode.optional(),
      url: z.string().optional().describe('Management URL of the gateway (ce) or dashboard (pro).'),
      auth: z.string().optional().describe('API key of the operator user. Prefer secretRef (key GW_AUTH) over writing it here.'),
      org: z.string().optional().describe('Organisation id of the operator user.'),
      insecureSkipVerify: z.boolean().optional().describe('Accept a self-signed certificate on an HTTPS url.'),
      ingress: z
        .object({
          httpPort: z
            .int()
            .min(1)
            .max(65535)
            .optional()
            .describe('Tyk Operator: HTTP ingress listen port. Refused when set (Ready=False Unsupported): gw gateways open no port per API.'),
          httpsPort: z
            .int()
            .min(1)
            .max(65535)
            .optional()
            .describe('Tyk Operator: HTTPS ingress listen port. Refused when set (Ready=False Unsupported): gw gateways open no port per API.'),
        })
        .optional(),
      user_owners: z.array(z.string()).optional().describe('Dashboard users owning the APIs created through this context.'),
      user_group_owners: z.array(z.string()).optional().describe('Dashboard user groups owning the APIs created through this context.'),
    })
    .optional()
    .describe('Settings of this context; they win over secretRef.'),
  secretRef: ObjectRef.optional().describe('Secret with GW_MODE, GW_URL, GW_AUTH, GW_ORG, ... filling what env leaves out.'),
});
export type OperatorContextSpec = z.infer<typeof OperatorContextSpec>;

const Links = z.array(LinkedResource).optional();

export const OperatorContextStatus = z.object({
  linked_api_definitions: Links,
  linked_oas_api_definitions: Links,
  linked_streams_api_definitions: Links,
  linked_security_policies: Links,
  linked_api_descriptions: Links,
  linked_portal_catalogues: Links,
  linked_portal_configs: Links,
  mode: OperatorMode.optional().describe('The mode the context resolves to (spec.env.mode, else its Secret): the MODE column.'),
  url: z.string().optional().describe('The management URL the context resolves to (spec.env.url, else its Secret): the URL column.'),
  conditions: Conditions.optional(),
});

export const operatorContextKind: KindDefinition = {
  kind: 'OperatorContext',
  plural: 'operatorcontexts',
  shortNames: ['gwctx'],
  description:
    'OperatorContext defines the context the operator works in for resources that reference it: which gateway or dashboard, organisation and identity.',
  spec: OperatorContextSpec,
  status: OperatorContextStatus,
  printerColumns: [
    // What the context resolves to (spec.env, else its Secret), as the operator last resolved it.
    { name: 'Mode', type: 'string', jsonPath: '.status.mode' },
    { name: 'URL', type: 'string', jsonPath: '.status.url' },
    ...readinessColumns,
  ],
};
