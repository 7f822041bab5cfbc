// The classic portal kinds as Kubernetes resource types, their finalizers, and the shapes of their objects as the
// operator reads them (spec and status types from the zod schemas of src/domain/crd/portal.ts). Kept apart from
// resources.ts so the portal controllers are one unit.
import type { z } from 'zod';
import { GROUP, VERSION } from '../../domain/crd/meta.ts';
import type {
  APIDescriptionSpec,
  APIDescriptionStatus,
  PortalAPICatalogueSpec,
  PortalAPICatalogueStatus,
  PortalConfigSpec,
  PortalConfigStatus,
} from '../../domain/crd/portal.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';

const gw = (kind: string, plural: string): ResourceType => ({ group: GROUP, version: VERSION, plural, kind, namespaced: true });

export const PortalResources = {
  apiDescription: gw('APIDescription', 'apidescriptions'),
  catalogue: gw('PortalAPICatalogue', 'portalapicatalogues'),
  config: gw('PortalConfig', 'portalconfigs'),
} as const;

export const PORTAL_FINALIZERS = {
  apiDescription: 'finalizers.gw.io/portalapidescription',
  catalogue: 'finalizers.gw.io/portalapicatalogue',
  config: 'finalizers.gw.io/portalconfiguration',
} as const;

export type APIDescriptionObject = KubeObject & { spec: z.infer<typeof APIDescriptionSpec>; status?: z.infer<typeof APIDescriptionStatus> };
export type PortalAPICatalogueObject = KubeObject & { spec: z.infer<typeof PortalAPICatalogueSpec>; status?: z.infer<typeof PortalAPICatalogueStatus> };
export type PortalConfigObject = KubeObject & { spec: z.infer<typeof PortalConfigSpec>; status?: z.infer<typeof PortalConfigStatus> };
