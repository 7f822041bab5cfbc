// KindDefinition -> CustomResourceDefinition object (apiextensions.k8s.io/v1): names, category `gw`, the status
// subresource, printer columns (plus AGE) and the structural schema of spec and status. Pure: writing the YAML
// files is scripts/gen-crds.ts's job.
import type { KindDefinition } from './kind.ts';
import { GROUP, VERSION } from './meta.ts';
import { toStructuralSchema, type JsonSchema } from './structural.ts';

export const CATEGORY = 'gw';

export function crdName(kind: KindDefinition): string {
  return `${kind.plural}.${GROUP}`;
}

export function toCrd(kind: KindDefinition): JsonSchema {
  const openAPIV3Schema: JsonSchema = {
    description: kind.description,
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string', description: 'Versioned schema of this object: gw.gw.io/v1alpha1.' },
      kind: { type: 'string', description: `Kind of this object: ${kind.kind}.` },
      metadata: { type: 'object' },
      spec: toStructuralSchema(kind.spec),
      status: toStructuralSchema(kind.status),
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: crdName(kind),
      labels: { 'app.kubernetes.io/part-of': 'gw' },
    },
    spec: {
      group: GROUP,
      names: {
        kind: kind.kind,
        listKind: `${kind.kind}List`,
        plural: kind.plural,
        singular: kind.kind.toLowerCase(),
        shortNames: kind.shortNames,
        categories: [CATEGORY],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [...kind.printerColumns, { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
          schema: { openAPIV3Schema },
        },
      ],
    },
  };
}
