// What a definition rule says about one field: its path (Kubernetes style: `.name` for fields, `[0]` for list
// indexes, `[key]` for map keys, under the base the caller gives: `spec` for the admission webhook, '' for the
// gateway), the kind of problem and what is allowed. The rules in this folder decide; each caller only frames the
// same words: the webhook as a Kubernetes field error (`spec.proxy.listen_path: Invalid value: "x": must start
// with '/'`), the gateway's loader as one line (`proxy.listen_path must start with '/'`, gatewayMessage below).

export type RuleProblemType = 'Required' | 'Forbidden' | 'Invalid';

export interface RuleProblem {
  /** Path of the offending field, e.g. spec.version_data.versions[v1].expires. */
  field: string;
  type: RuleProblemType;
  /** What is wrong and what is allowed. */
  message: string;
  /** The offending value, for Invalid ('(redacted)' for secrets). */
  value?: unknown;
}

export const required = (field: string, message: string): RuleProblem => ({ field, type: 'Required', message });
export const forbidden = (field: string, message: string): RuleProblem => ({ field, type: 'Forbidden', message });
export const invalid = (field: string, value: unknown, message: string): RuleProblem => ({ field, type: 'Invalid', value, message });

/** Appends field names the way Kubernetes writes paths: `.name` for fields, `[0]` for list indexes. */
export function childPath(base: string, ...segments: (string | number)[]): string {
  let path = base;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path;
}

/** Appends a map key: `spec.access_rights[api-1]`, `spec.version_data.versions[v1]`. */
export function keyPath(base: string, key: string): string {
  return `${base}[${key}]`;
}

/** Words that continue a field name as a sentence: `proxy.listen_path must start with '/'`. */
const PREDICATE = /^(must|is|are|names|needs|has|does|cannot)\b/;

/**
 * The gateway's one-line refusal (a load problem, the management API's 400): `<field> is required: <what>`,
 * `<field> must ...` (a message that starts with a verb or the value continues the field, any other follows a
 * colon; the value itself is left out: it may be a secret, and the field names it), `<field>: <why>`. Map keys
 * read as fields, as in the definition's JSON: version_data.versions.v1.
 */
export function gatewayMessage(problem: RuleProblem): string {
  const field = dottedPath(problem.field);
  switch (problem.type) {
    case 'Required':
      return `${field} is required: ${problem.message}`;
    case 'Invalid':
      return PREDICATE.test(problem.message) || (typeof problem.value === 'string' && problem.value !== '' && problem.message.startsWith(problem.value))
        ? `${field} ${problem.message}`
        : `${field}: ${problem.message}`;
    case 'Forbidden':
      return `${field}: ${problem.message}`;
  }
}

/** The gateway names map keys as fields, the way a definition's JSON reads: version_data.versions.v1, add_headers.X-Name. */
function dottedPath(path: string): string {
  return path.replace(/\[([^\]]*[^\d\]][^\]]*)\]/g, '.$1');
}
