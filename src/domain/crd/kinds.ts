// The ten kinds of group gw.gw.io, version v1alpha1, in the order the CRDs are generated.
import { apiDefinitionKind } from './apidefinition.ts';
import { subGraphKind, superGraphKind } from './graph.ts';
import type { KindDefinition } from './kind.ts';
import { gwOasApiDefinitionKind } from './oasapidefinition.ts';
import { operatorContextKind } from './operatorcontext.ts';
import { apiDescriptionKind, portalAPICatalogueKind, portalConfigKind } from './portal.ts';
import { securityPolicyKind } from './securitypolicy.ts';
import { gwStreamsApiDefinitionKind } from './streamsapidefinition.ts';

export const kinds: readonly KindDefinition[] = [
  gwOasApiDefinitionKind,
  apiDefinitionKind,
  gwStreamsApiDefinitionKind,
  securityPolicyKind,
  subGraphKind,
  superGraphKind,
  operatorContextKind,
  apiDescriptionKind,
  portalAPICatalogueKind,
  portalConfigKind,
];
