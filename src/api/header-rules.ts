// What a configured header edit (Classic global_headers, global_response_headers and their _remove lists) may
// name and carry, shared by the gateway (which compiles the edits) and the admission webhook (which restates the
// gateway's refusals): a name is an HTTP token; a value has no control characters (node:http refuses to send them)
// and names no context variable (the gateway does not substitute them in header values yet, and never sends one
// literally). Returns the problem as text, undefined when accepted. Never throws. Also the anchor's (Go's) canonical
// spelling of a header name, and what a CORS allowed origin may be.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- the control characters are what this rule refuses
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const CONTEXT_VARIABLE = /\$(tyk|gw)_(context|meta|secrets)\./;

export function headerNameProblem(name: string): string | undefined {
  return TOKEN.test(name) ? undefined : `is not a valid header name: ${JSON.stringify(name)}`;
}

export function headerValueProblem(value: string): string | undefined {
  if (CONTROL.test(value)) return 'must not contain control characters';
  if (CONTEXT_VARIABLE.test(value)) return 'context variables in header values are not supported by this gateway yet';
  return undefined;
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
