// The endpoint designer's inputs as typed, and back: numbers, `Name: value` header lines, base64 templates. Shared
// by the Classic (endpoint-rules.ts) and the OAS (oas-endpoint-rules.ts) models. What does not parse is returned as
// typed, so the dashboard's refusal names its field. Pure functions.
export type Json = Record<string, unknown>;

export const objectAt = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
export const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export function numberOr(typed: string): number | string {
  const trimmed = typed.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** `Name: value` lines as an object; any line without a colon sends the text as typed (refused at its field). */
export function headersOr(typed: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const line of typed.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return typed;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Headers as `Name: value` lines, from an object (Classic) or a list of {name, value} (OAS). */
export const headerLines = (value: unknown): string =>
  (Array.isArray(value) ? value.map((h) => [text(objectAt(h).name), objectAt(h).value] as const) : Object.entries(objectAt(value)))
    .map(([name, v]) => `${name}: ${text(v)}`)
    .join('\n');

/** Names separated by commas, as a list (blank names dropped). */
export const nameList = (typed: string): string[] =>
  typed
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');

/** UTF-8 text as base64 (Tyk's `blob` templates and OAS `body`) and back; a blob that is no base64 reads as ''. */
export function toBase64(typed: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(typed)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
export function fromBase64(encoded: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
}
