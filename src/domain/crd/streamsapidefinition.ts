// GwStreamsApiDefinition: an async (streams) API based on the OAS definition (x-gw-api-gateway plus x-gw-streaming),
// kept in a ConfigMap like GwOasApiDefinition. Certificates are set by id only (gw's design): the certificate settings
// have GwOasApiDefinition's shape so a spec moved over keeps its meaning, but a field naming a Secret is refused
// (admission webhook and controller), naming the field.
import { z } from 'zod';
import { ConfigMapKeyRef, ContextRef } from './meta.ts';
import { certificateSettings, OasStatusFields } from './oasapidefinition.ts';
import { readinessColumns, syncStatusColumn, type KindDefinition } from './kind.ts';

export const GwStreamsApiDefinitionSpec = z.object({
  gwStreams: z
    .object({ configmapRef: ConfigMapKeyRef.describe('ConfigMap key holding the Streams API definition (JSON).') })
    .describe('Where the Streams API definition is kept.'),
  contextRef: ContextRef.optional(),
  ...certificateSettings('Refused: a GwStreamsApiDefinition takes certificates by id only.'),
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
    ...readinessColumns,
  ],
};
