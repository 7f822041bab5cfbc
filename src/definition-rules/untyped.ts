// Reading the raw JSON of an admitted object before (or without) its schema accepting it: validators look at
// fields by type and skip what has the wrong type, which the schema check reports on its own.

/** The value when it is a JSON object (not an array, not null). */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The value when it is a finite number. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
