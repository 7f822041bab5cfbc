// GwStreamsApiDefinition: an async (streams) API based on the OAS definition, kept in a ConfigMap like
// GwOasApiDefinition. Certificates can only be given by id inside the document (no Secret references).
import { z } from 'zod';
import { ConfigMapKeyRef, ContextRef } from './meta.ts';
import { OasStatusFields } from './oasapidefinition.ts';
import { syncStatusColumn, type KindDefinition } from './kind.ts';

export const GwStreamsApiDefinitionSpec = z.object({
  gwStreams: z
    .object({ configmapRef: ConfigMapKeyRef.describe('ConfigMap key holding the Streams API definition (JSON).') })
    .describe('Where the Streams API definition is kept.'),
  contextRef: ContextRef.optional(),
});

export const GwStreamsApiDefinitionStatus = z.object(OasStatusFields);

export const gwStreamsApiDefinitionKind: KindDefinition = {
  kind: 'GwStreamsApiDefinition',
  plural: 'gwstreamsapidefinitions',
  shortNames: ['gwstreams'],
  description: 'GwStreamsApiDefinition is an async (streams) API configuration based on the OAS definition, kept in a ConfigMap.',
  spec: GwStreamsApiDefinitionSpec,
  status: GwStreamsApiDefinitionStatus,
  printerColumns: [
    { name: 'Domain', type: 'string', jsonPath: '.status.domain' },
    { name: 'ListenPath', type: 'string', jsonPath: '.status.listenPath' },
    { name: 'Enabled', type: 'boolean', jsonPath: '.status.enabled' },
    syncStatusColumn,
  ],
};
