// JSON Schema `uniqueItems` in time linear in the array: each item is written once as a canonical key (object keys
// sorted at every level, so `{"a":1,"b":2}` equals `{"b":2,"a":1}` as JSON Schema's equality says) and looked up in
// a Map. ajv's own keyword compares every pair of non-scalar items: 12 000 objects blocked the gateway for seconds,
// 100 000 (3 MB) for minutes. Same error as ajv's (message and params {i, j}: the later duplicate and the earlier
// item), so callers and their messages do not change. The key's recursion is bounded by the proxied body depth
// limit (http/json-body.ts: the gateway refuses a body past MAX_JSON_DEPTH before validating it).
import type { KeywordDefinition, SchemaValidateFunction } from 'ajv';

const validate: SchemaValidateFunction = (schema: unknown, data: unknown): boolean => {
  if (schema !== true || !Array.isArray(data)) return true;
  const seen = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const key = canonicalKey(data[i]);
    const j = seen.get(key);
    if (j !== undefined) {
      validate.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }];
      return false;
    }
    seen.set(key, i);
  }
  return true;
};

export const uniqueItemsKeyword: KeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate,
};

/** JSON text of a parsed JSON value with object keys sorted (sorting only objects whose keys are out of order). */
export function canonicalKey(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalKey(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let text = '{';
  for (let i = 0; i < keys.length; i++) text += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalKey(record[keys[i]!])}`;
  return `${text}}`;
}
