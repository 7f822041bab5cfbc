// Canonical JSON and its hash, for every part that compares content: object keys sorted at every level, undefined
// dropped (in arrays: null), no whitespace, so equal values always give equal text whatever their key order (JSONB
// hands keys back in its own order). The dashboard's node-configuration version and the operator's change hash are
// both contentHash. Recursive: callers hash only values bounded in depth (request bodies are, by http/json-body.ts).
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
