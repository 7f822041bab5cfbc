// The field paths a zod schema accepts, for the accepted-fields guard (src/domain/accepted-fields.test.ts): every
// named property, nested through objects, arrays (`[]`), maps (`{}`) and unions, down to free-form values. The
// schema is read through zod's own JSON Schema output (input side), the same document the CRDs are made from.
import { z } from 'zod';

export interface SchemaField {
  /** Dotted path from the schema's root: `proxy.target_list`, `version_data.versions.{}.paths.ignored`. */
  path: string;
  /** The property name, what the sources must read. */
  name: string;
}

type JsonSchema = { [key: string]: unknown };

const MAX_DEPTH = 40;

/** Every named property of a zod schema (or of a JSON Schema already made from one, like a CRD's). */
export function schemaFields(schema: z.ZodType | JsonSchema): SchemaField[] {
  const json =
    schema instanceof z.ZodType ? (z.toJSONSchema(schema, { io: 'input', reused: 'inline', cycles: 'throw', unrepresentable: 'any' }) as JsonSchema) : schema;
  const fields: SchemaField[] = [];
  walk(json, '', fields, 0);
  return fields;
}

function walk(node: JsonSchema, path: string, fields: SchemaField[], depth: number): void {
  if (depth > MAX_DEPTH) throw new Error(`${path}: schema nested deeper than ${MAX_DEPTH}`);
  const properties = node.properties;
  if (isSchema(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      const childPath = path ? `${path}.${name}` : name;
      fields.push({ path: childPath, name });
      if (isSchema(child)) walk(child, childPath, fields, depth + 1);
    }
  }
  if (isSchema(node.items)) walk(node.items, `${path}[]`, fields, depth + 1);
  if (isSchema(node.additionalProperties)) walk(node.additionalProperties, `${path}.{}`, fields, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = node[key];
    if (Array.isArray(options)) for (const option of options) if (isSchema(option)) walk(option, path, fields, depth + 1);
  }
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
