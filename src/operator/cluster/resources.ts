// The gw.gw.io kinds as Kubernetes resource types, and the shapes of their objects as the operator reads them
// (the spec and status types come from the zod schemas of src/domain/crd).
import type { z } from 'zod';
import type { ApiDefinitionSpec, ApiDefinitionStatus } from '../../domain/crd/apidefinition.ts';
import type { SubGraphSpec, SubGraphStatus, SuperGraphSpec, SuperGraphStatus } from '../../domain/crd/graph.ts';
import { GROUP, VERSION } from '../../domain/crd/meta.ts';
import type { GwOasApiDefinitionSpec, GwOasApiDefinitionStatus } from '../../domain/crd/oasapidefinition.ts';
import type { OperatorContextSpec, OperatorContextStatus } from '../../domain/crd/operatorcontext.ts';
import type { SecurityPolicySpec, SecurityPolicyStatus } from '../../domain/crd/securitypolicy.ts';
import type { GwStreamsApiDefinitionSpec, GwStreamsApiDefinitionStatus } from '../../domain/crd/streamsapidefinition.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';

const gw = (kind: string, plural: string): ResourceType => ({ group: GROUP, version: VERSION, plural, kind, namespaced: true });

export const GwResources = {
  apiDefinition: gw('ApiDefinition', 'apidefinitions'),
  oasApiDefinition: gw('GwOasApiDefinition', 'gwoasapidefinitions'),
  streamsApiDefinition: gw('GwStreamsApiDefinition', 'gwstreamsapidefinitions'),
  securityPolicy: gw('SecurityPolicy', 'securitypolicies'),
  operatorContext: gw('OperatorContext', 'operatorcontexts'),
  subGraph: gw('SubGraph', 'subgraphs'),
  superGraph: gw('SuperGraph', 'supergraphs'),
} as const;

export type ApiDefinitionObject = KubeObject & { spec: ApiDefinitionSpec; status?: z.infer<typeof ApiDefinitionStatus> };
export type OasApiDefinitionObject = KubeObject & { spec: z.infer<typeof GwOasApiDefinitionSpec>; status?: z.infer<typeof GwOasApiDefinitionStatus> };
export type StreamsApiDefinitionObject = KubeObject & {
  spec: z.infer<typeof GwStreamsApiDefinitionSpec>;
  status?: z.infer<typeof GwStreamsApiDefinitionStatus>;
};
export type SecurityPolicyObject = KubeObject & { spec: SecurityPolicySpec; status?: z.infer<typeof SecurityPolicyStatus> };
export type OperatorContextObject = KubeObject & { spec: OperatorContextSpec; status?: z.infer<typeof OperatorContextStatus> };
export type SubGraphObject = KubeObject & { spec: z.infer<typeof SubGraphSpec>; status?: z.infer<typeof SubGraphStatus> };
export type SuperGraphObject = KubeObject & { spec: z.infer<typeof SuperGraphSpec>; status?: z.infer<typeof SuperGraphStatus> };
export type ConfigMapObject = KubeObject & { data?: Record<string, string> };
export type SecretObject = KubeObject & { type?: string; data?: Record<string, string> };

export const FINALIZERS = {
  apiDefinition: 'finalizers.gw.io/apidefinition',
  oasApiDefinition: 'finalizers.gw.io/gwoasapidefinition',
  streamsApiDefinition: 'finalizers.gw.io/gwstreamsapidefinition',
  securityPolicy: 'finalizers.gw.io/securitypolicy',
  operatorContext: 'finalizers.gw.io/operatorcontext',
  subGraph: 'finalizers.gw.io/subgraph',
  superGraph: 'finalizers.gw.io/supergraph',
} as const;
