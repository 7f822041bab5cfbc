// Compiles JSON Schema validation rules once at load (json-schema/compile.ts: ajv, draft-07): Classic
// extended_paths.validate_json [{path, method, schema, error_response_code}] and OAS operations.<id>.validateRequest {enabled, errorResponseCode} against the operation's application/json requestBody
// schema (its `#/components/...` references resolved against the document). A schema ajv cannot compile refuses the
// API naming the field; an OAS operation without a JSON request body schema is refused before (definition-rules/oas-definition.ts).
// One ajv instance per API definition, so a reload drops the old compiled schemas with the old API.
import type { ValidateFunction } from 'ajv';
import type { ExtendedPaths } from '../../domain/classic.ts';
import { compileJsonSchema, newSchemaCompiler, type SchemaCompiler } from '../../json-schema/compile.ts';
import { GW_EXTENSION, operationsById, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import { DefinitionError } from './api-spec.ts';
import { configuredOperations, requestBodySchema } from '../../definition-rules/oas-definition.ts';
import type { JsonValidationRule } from './version-spec.ts';
import { compilePathPattern } from './path-pattern.ts';

const DEFAULT_ERROR_CODE = 422;

function compileSchema(compiler: SchemaCompiler, schema: Record<string, unknown>, field: string): ValidateFunction {
  const compiled = compileJsonSchema(compiler, schema);
  if ('problem' in compiled) throw new DefinitionError(`${field} ${compiled.problem}`);
  return compiled;
}

export function classicJsonValidations(list: ExtendedPaths['validate_json'], field: string): JsonValidationRule[] {
  const entries = (list ?? []).map((entry, index) => ({ entry, index })).filter(({ entry }) => !entry.disabled);
  if (entries.length === 0) return [];
  const ajv = newSchemaCompiler();
  return entries.map(({ entry, index }) => ({
    pattern: compilePathPattern(entry.path),
    method: entry.method.toUpperCase(),
    validate: compileSchema(ajv, entry.schema, `${field}[${index}].schema`),
    errorCode: entry.error_response_code || DEFAULT_ERROR_CODE,
    format: 'classic',
  }));
}

export function oasJsonValidations(doc: OasDocument, ext: GwExtension): JsonValidationRule[] {
  const configured = configuredOperations(ext);
  const known = operationsById(doc);
  const rules: JsonValidationRule[] = [];
  let ajv: SchemaCompiler | undefined;
  for (const [operationId, operation] of Object.entries(configured)) {
    const settings = operation.validateRequest;
    const target = known.get(operationId);
    if (!settings?.enabled || !target) continue;
    const field = `${GW_EXTENSION}.operations.${operationId}.validateRequest`;
    const schema = requestBodySchema(doc, target.path, target.method);
    if (!schema) continue; // refused by oasDefinitionProblems
    ajv ??= newSchemaCompiler();
    // `#/components/...` references resolve against the schema's root: carry the document's components there.
    const rooted = { ...schema, ...(doc.components ? { components: doc.components } : {}) };
    rules.push({
      pattern: compilePathPattern(target.path),
      method: target.method,
      validate: compileSchema(ajv, rooted, `paths.${target.path}.${target.method.toLowerCase()}.requestBody (${field})`),
      errorCode: settings.errorResponseCode || DEFAULT_ERROR_CODE,
      format: 'oas',
    });
  }
  return rules;
}
