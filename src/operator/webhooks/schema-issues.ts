// A custom resource's zod schema (src/domain/crd) applied at admission: every issue it raises becomes a field error
// with the path Kubernetes would print (spec.access_rights_array[0].name) and a message saying what is allowed.
// The apiserver already enforces the generated CRD schema (types, enums, CEL rules); this catches what the
// structural schema cannot say and keeps the webhook's answer complete when it is called on its own.
import type { z } from 'zod';
import { childPath, invalid, keyPath, notSupported, required, type FieldError } from './field-errors.ts';

export function schemaErrors(schema: z.ZodType, value: unknown, base: string): FieldError[] {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => toFieldError(issue, pathOf(schema, issue.path, base)));
}

/** The issue's path written against the schema: fields as `.name`, list indexes as `[0]`, record keys as `[key]`. */
function pathOf(schema: z.ZodType, path: PropertyKey[], base: string): string {
  let field = base;
  let node: SchemaNode | undefined = schema;
  for (const segment of path) {
    while (node && WRAPPERS.has(node._zod.def.type)) node = node._zod.def.innerType ?? node._zod.def.in;
    const def: SchemaNode['_zod']['def'] | undefined = node?._zod.def;
    if (typeof segment === 'number') {
      field = childPath(field, segment);
      node = def?.element;
    } else if (def?.type === 'record') {
      field = keyPath(field, String(segment));
      node = def.valueType;
    } else {
      field = childPath(field, String(segment));
      node = def?.shape?.[String(segment)];
    }
  }
  return field;
}

/** The parts of zod's schema definitions the path walk reads. */
interface SchemaNode {
  _zod: { def: { type: string; innerType?: SchemaNode; in?: SchemaNode; element?: SchemaNode; valueType?: SchemaNode; shape?: Record<string, SchemaNode> } };
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'pipe']);

function toFieldError(issue: z.core.$ZodIssue, field: string): FieldError {
  const input = (issue as { input?: unknown }).input;
  const hasInput = 'input' in issue;
  switch (issue.code) {
    case 'invalid_type':
      return hasInput && input !== undefined
        ? invalid(field, input, `must be ${article(issue.expected)}`)
        : required(field, `must be set (${article(issue.expected)})`);
    case 'invalid_value':
      return notSupported(field, input, issue.values.map(String));
    case 'too_small':
      return invalid(field, input, bound(issue.origin, issue.inclusive ? 'at least' : 'more than', issue.minimum));
    case 'too_big':
      return invalid(field, input, bound(issue.origin, issue.inclusive ? 'at most' : 'less than', issue.maximum));
    case 'invalid_format':
      return invalid(field, input, issue.pattern ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`);
    case 'invalid_key':
      return invalid(field, input, `is not an allowed key: ${issue.issues.map((i) => i.message).join('; ')}`);
    default:
      return invalid(field, input, issue.message);
  }
}

function article(expected: string): string {
  const noun = expected === 'record' ? 'object' : expected === 'int' ? 'integer' : expected;
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function bound(origin: string, relation: string, limit: number | bigint): string {
  if (origin === 'string') return `must have ${relation} ${limit} character${Number(limit) === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `must have ${relation} ${limit} item${Number(limit) === 1 ? '' : 's'}`;
  return `must be ${relation} ${limit}`;
}
