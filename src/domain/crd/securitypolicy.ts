// SecurityPolicy: a security policy as a custom resource. Its access list names API resources
// (access_rights_array: name, namespace, kind) so API ids never need hard-coding; the operator resolves them to
// api ids and sends gw's documented policy object.
import { z } from 'zod';
import { AccessDefinition, AllowedUrl, ApiLimit, PolicyFields } from '../policy.ts';
import { GraphqlAccessFields } from '../graphql.ts';
import { ContextRef, LinkedResource, syncedStatusFields } from './meta.ts';
import { readinessColumns, syncStatusColumn, type KindDefinition } from './kind.ts';

export const ApiKind = z.enum(['ApiDefinition', 'GwOasApiDefinition', 'GwStreamsApiDefinition']);

export const AccessRightReference = z.object({
  name: z.string().min(1).describe('Name of the API resource.'),
  namespace: z.string().optional().describe("Namespace of the API resource; empty means the policy's own namespace."),
  kind: ApiKind.optional().describe('Kind of the API resource (default ApiDefinition).'),
  versions: z.array(z.string()).optional().describe('Version names the policy grants (default: Default).'),
  allowed_urls: z.array(AllowedUrl).optional().describe('When present, the only paths the policy grants.'),
  limit: ApiLimit.optional().describe('Per-API rate limit, quota and throttling.'),
  ...GraphqlAccessFields,
});

export const SecurityPolicySpec = z.object({
  id: z.string().optional().describe('Explicit policy id; by default the operator derives a stable id from namespace and name.'),
  ...PolicyFields,
  access_rights_array: z.array(AccessRightReference).optional().describe('APIs the policy grants, by resource reference.'),
  access_rights: z.record(z.string(), AccessDefinition).optional().describe('APIs the policy grants by API id (for APIs not managed in this cluster).'),
  contextRef: ContextRef.optional(),
});
export type SecurityPolicySpec = z.infer<typeof SecurityPolicySpec>;

export const SecurityPolicyStatus = z.object({
  pol_id: z.string().optional().describe('Id of the policy on the gateway or dashboard.'),
  ...syncedStatusFields,
  linked_apis: z.array(LinkedResource).optional().describe('API resources the policy grants.'),
  linked_by_apis: z.array(LinkedResource).optional().describe('ApiDefinitions using the policy as a JWT default policy (jwt_default_policies).'),
});

export const securityPolicyKind: KindDefinition = {
  kind: 'SecurityPolicy',
  plural: 'securitypolicies',
  shortNames: ['gwpolicies', 'gwpol'],
  description: 'SecurityPolicy is a security policy (access rights, rate limit, quota, throttling) kept in sync with the gateway or dashboard.',
  spec: SecurityPolicySpec,
  status: SecurityPolicyStatus,
  printerColumns: [
    // Not "Name": kubectl already prints the object's NAME first, and two NAME headers read as one.
    { name: 'PolicyName', type: 'string', jsonPath: '.spec.name' },
    { name: 'State', type: 'string', jsonPath: '.spec.state' },
    syncStatusColumn,
    ...readinessColumns,
  ],
};
