// A free-form JSON object: the schema of subtrees we keep as their author wrote them (config_data, meta_data,
// GraphQL settings, the spec of kinds gw's design leaves open). In a CRD it becomes x-kubernetes-preserve-unknown-fields.
import { z } from 'zod';

export const FreeForm = z.record(z.string(), z.unknown());
export type FreeForm = z.infer<typeof FreeForm>;
