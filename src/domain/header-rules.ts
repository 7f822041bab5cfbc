// What a configured header may name and carry (RFC 9110 §5.1, §5.5), shared by the gateway (which compiles header
// edits, header transforms and CORS) and the admission webhook (which restates the gateway's refusals): a name is an
// HTTP token; a value has no control characters but tab (node:http refuses to send them). Global header edits
// (global_headers, global_response_headers) also name no context variable: only header transforms substitute them
// (definition/variable-text.ts), and a global edit would send one literally. Returns the problem as text, undefined
// when accepted; never throws. Also Tyk's (Go's) canonical spelling of a header name, and what a CORS
// allowed origin may be.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- the control characters are what this rule refuses
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const CONTEXT_VARIABLE = /\$(tyk|gw)_(context|meta|secrets)\./;

export function headerNameProblem(name: string): string | undefined {
  return TOKEN.test(name) ? undefined : `is not a valid header name: ${JSON.stringify(name)}`;
}

export function headerValueProblem(value: string): string | undefined {
  return CONTROL.test(value) ? 'must not contain control characters' : undefined;
}

/** A global header edit's value: a header value that names no context variable (global edits do not substitute). */
export function globalHeaderValueProblem(value: string): string | undefined {
  if (CONTEXT_VARIABLE.test(value)) return 'context variables are substituted in header transforms (transform_headers), not in global headers';
  return headerValueProblem(value);
}

/** Go's textproto.CanonicalMIMEHeaderKey: `content-type` -> `Content-Type`. */
export function canonicalHeaderName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** A CORS allowed origin holds one `*` wildcard at most (`*` alone allows every origin). */
export function corsOriginProblem(origin: string): string | undefined {
  const star = origin.indexOf('*');
  return star !== -1 && origin.indexOf('*', star + 1) !== -1 ? `may hold one '*' wildcard at most: ${origin}` : undefined;
}
