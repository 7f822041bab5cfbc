// Admission of GwStreamsApiDefinition resources (validation only; nothing is defaulted): the CRD's zod schema, and
// certificates by id only (gw's design): every certificate setting naming a Secret is Forbidden, naming the field and
// the id field to use (translate/streams.ts, the rule the controller applies too for clusters without this webhook).
// The document in the ConfigMap is not read here: it may not exist yet, and the controller reports it.
import { GwStreamsApiDefinitionSpec } from '../../domain/crd/streamsapidefinition.ts';
import { streamsSecretRefusals } from '../translate/streams.ts';
import { forbidden, mergeResults, required, type ValidationResult } from './field-errors.ts';
import { schemaErrors } from './schema-issues.ts';

export function validateStreamsApiDefinition(spec: unknown): ValidationResult {
  if (spec === undefined) return mergeResults([required('spec', 'a GwStreamsApiDefinition needs a spec')]);
  const parsed = GwStreamsApiDefinitionSpec.safeParse(spec);
  if (!parsed.success) return mergeResults(schemaErrors(GwStreamsApiDefinitionSpec, spec, 'spec'));
  return mergeResults(streamsSecretRefusals(parsed.data).map((r) => forbidden(r.field, r.message)));
}
