// A template carried as base64 in a definition (Classic template_source in blob mode, OAS transformRequestBody.body):
// strict decoding, shared by the gateway (which compiles it) and the operator's webhook (which refuses it early).
// Buffer.from(text, 'base64') silently skips characters outside the alphabet; this refuses them instead.

/** The decoded template, or undefined when `text` is not base64 (standard or URL alphabet, padding optional). */
export function decodeBase64Template(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) return undefined;
  return Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64').toString('utf8');
}

/** The methods whose requests carry a body a transform can rewrite. */
export const TRANSFORMABLE_METHODS: ReadonlySet<string> = new Set(['PUT', 'POST', 'PATCH']);
