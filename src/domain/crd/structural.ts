// zod -> a *structural* OpenAPI v3 schema, the only kind a CustomResourceDefinition accepts.
//
// zod 4 writes OpenAPI 3.0 JSON Schema; the apiserver then demands more (apiextensions validation.go): every node
// has a type unless it preserves unknown fields or is int-or-string; no $ref, anyOf/oneOf/allOf with types,
// propertyNames, patternProperties or uniqueItems; `properties` never beside `additionalProperties`; regexes in
// Go's RE2 dialect. This post-pass rewrites what has a structural equivalent and throws, naming the path, on what
// has none, so a schema that cannot become a CRD fails at generation time, not at `kubectl apply`.
// No library does this for zod (docs/compatibility.md), hence this file.
import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const FORBIDDEN = [
  '$ref',
  'definitions',
  '$defs',
  'dependencies',
  'patternProperties',
  'additionalItems',
  'oneOf',
  'allOf',
  'not',
  'uniqueItems',
  'nullable',
  'const',
];
const PRESERVE = 'x-kubernetes-preserve-unknown-fields';
const INT_OR_STRING = 'x-kubernetes-int-or-string';

export class StructuralSchemaError extends Error {
  constructor(path: string, problem: string) {
    super(`${path || '<root>'}: ${problem}`);
    this.name = 'StructuralSchemaError';
  }
}

/** The structural OpenAPI v3 schema of a zod schema (its input side: defaulted fields stay optional). */
export function toStructuralSchema(schema: z.ZodType): JsonSchema {
  const raw = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    reused: 'inline',
    cycles: 'throw',
    unrepresentable: 'throw',
  }) as JsonSchema;
  return structural(raw, '');
}

function structural(input: JsonSchema, path: string): JsonSchema {
  const node: JsonSchema = { ...input };
  delete node.$schema;
  delete node.id;

  if (Object.keys(node).filter((k) => k !== 'description').length === 0) {
    // z.unknown() / z.any(): any JSON value.
    return { ...node, [PRESERVE]: true };
  }
  if (Array.isArray(node.anyOf)) return intOrString(node, path);
  for (const key of FORBIDDEN) {
    if (key in node) throw new StructuralSchemaError(path, `"${key}" has no structural equivalent`);
  }

  if (node.type === 'integer') {
    if (node.minimum === -MAX_SAFE) delete node.minimum;
    if (node.maximum === MAX_SAFE) delete node.maximum;
    node.format ??= 'int64';
  }
  if (node.format === 'date-time') delete node.pattern; // zod spells out RFC 3339 as a regex; the format says it.
  if (typeof node.pattern === 'string') checkRe2(node.pattern, path);

  if (node.type === 'object') {
    delete node.propertyNames;
    const extra = node.additionalProperties;
    const open = extra === true || (isSchema(extra) && Object.keys(extra).length === 0);
    if (node.properties !== undefined || open || extra === false) delete node.additionalProperties;
    if (open) node[PRESERVE] = true;
    if (isSchema(node.properties)) {
      node.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, child]) => [name, structural(asSchema(child, `${path}.${name}`), `${path}.${name}`)]),
      );
    }
    if (isSchema(node.additionalProperties)) node.additionalProperties = structural(node.additionalProperties, `${path}[*]`);
  }
  if (node.type === 'array') node.items = structural(asSchema(node.items, `${path}[]`), `${path}[]`);

  if (node.type === undefined && node[PRESERVE] !== true) throw new StructuralSchemaError(path, 'a node without a type');
  return node;
}

/**
 * `z.union([z.int(), z.string()])` is the one union a CRD can express as such. A number-or-string union (Tyk
 * Operator types some numbers as strings: circuit_breakers[].threshold_percent) becomes a node that keeps any value;
 * the admission webhook and the gateway check it with the zod schema.
 */
function intOrString(node: JsonSchema, path: string): JsonSchema {
  const types = (node.anyOf as JsonSchema[]).map((alternative) => alternative.type).sort();
  if (types.length === 2 && types[0] === 'number' && types[1] === 'string') {
    return { ...(node.description !== undefined ? { description: node.description } : {}), [PRESERVE]: true };
  }
  if (types.length !== 2 || types[0] !== 'integer' || types[1] !== 'string') {
    throw new StructuralSchemaError(path, `union of ${types.join(', ')}: only int-or-string unions are structural`);
  }
  const { anyOf: _anyOf, ...rest } = node;
  return { ...rest, [INT_OR_STRING]: true };
}

/** The apiserver compiles patterns with Go's RE2: no lookaround, no backreferences. */
function checkRe2(pattern: string, path: string): void {
  if (/\(\?<?[=!]/.test(pattern)) throw new StructuralSchemaError(path, `pattern ${pattern} uses lookaround, which RE2 lacks`);
  if (/\\[1-9]/.test(pattern)) throw new StructuralSchemaError(path, `pattern ${pattern} uses a backreference, which RE2 lacks`);
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asSchema(value: unknown, path: string): JsonSchema {
  if (!isSchema(value)) throw new StructuralSchemaError(path, 'expected a schema object');
  return value;
}
