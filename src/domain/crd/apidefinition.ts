// ApiDefinition: a Classic API configuration as a custom resource. The spec is the Classic API definition
// (../classic.ts) plus references that only make sense in a cluster (an OperatorContext, TLS Secrets); the
// operator resolves those references and strips them before sending the definition to the gateway.
import { z } from 'zod';
import { ClassicApiFields } from '../classic.ts';
import { GraphqlSection } from '../graphql.ts';
import { ContextRef, LinkedResource, syncedStatusFields } from './meta.ts';
import { readinessColumns, syncStatusColumn, type KindDefinition } from './kind.ts';

export const ApiDefinitionSpec = z.object({
  ...ClassicApiFields,
  contextRef: ContextRef.optional(),
  graphql: GraphqlSection.extend({
    graph_ref: z
      .string()
      .optional()
      .describe('Where Tyk Operator places graph_ref: the same as spec.graph_ref (either may be used; if both, they must agree).'),
  })
    .optional()
    .describe(ClassicApiFields.graphql.description ?? ''),
  graph_ref: z
    .string()
    .optional()
    .describe(
      'GraphQL federation: name of a SubGraph (graphql.execution_mode subgraph) or SuperGraph (supergraph) in the same namespace; the operator fills the graphql section from it.',
    ),
  certificate_secret_names: z.array(z.string()).optional().describe("kubernetes.io/tls Secrets (same namespace) served as certificates for this API's domain."),
  client_certificate_refs: z
    .array(z.string())
    .optional()
    .describe('kubernetes.io/tls Secrets (same namespace) holding client certificates allowed for client mTLS.'),
  upstream_certificate_refs: z.record(z.string(), z.string()).optional().describe('Upstream mTLS: host -> kubernetes.io/tls Secret (same namespace).'),
  pinned_public_keys_refs: z
    .record(z.string(), z.string())
    .optional()
    .describe('Public key pinning: host -> kubernetes.io/tls Secret (same namespace) whose certificate holds the pinned public key.'),
});
export type ApiDefinitionSpec = z.infer<typeof ApiDefinitionSpec>;

/** The SubGraph or SuperGraph an ApiDefinition names: spec.graph_ref, else spec.graphql.graph_ref (Tyk Operator's place). */
export function specGraphRef(spec: Pick<ApiDefinitionSpec, 'graph_ref' | 'graphql'>): string | undefined {
  return spec.graph_ref || spec.graphql?.graph_ref || undefined;
}

export const ApiDefinitionStatus = z.object({
  api_id: z.string().optional().describe('Id of the API on the gateway or dashboard.'),
  orgId: z.string().optional().describe('Organisation the API belongs to.'),
  ...syncedStatusFields,
  linked_by_policies: z.array(LinkedResource).optional().describe('SecurityPolicies granting access to this API.'),
  linked_to_subgraph: z.string().optional().describe('The SubGraph (graph_ref) this subgraph API serves.'),
  ingressTemplate: z.boolean().optional().describe('The API is a template for Ingress resources (label gw.gw.io/template=true) and is not synced itself.'),
  ingresses: z.array(z.string()).optional().describe('Ingresses (namespace/name) made from this template.'),
});

export const apiDefinitionKind: KindDefinition = {
  kind: 'ApiDefinition',
  plural: 'apidefinitions',
  shortNames: ['gwapis'],
  description: 'ApiDefinition is a Classic API configuration the operator keeps in sync with the gateway or dashboard.',
  spec: ApiDefinitionSpec,
  status: ApiDefinitionStatus,
  printerColumns: [
    { name: 'Domain', type: 'string', jsonPath: '.spec.domain' },
    { name: 'ListenPath', type: 'string', jsonPath: '.spec.proxy.listen_path' },
    { name: 'Proxy.TargetURL', type: 'string', jsonPath: '.spec.proxy.target_url' },
    { name: 'Enabled', type: 'boolean', jsonPath: '.spec.active' },
    syncStatusColumn,
    { name: 'IngressTemplate', type: 'boolean', jsonPath: '.status.ingressTemplate' },
    ...readinessColumns,
  ],
};
