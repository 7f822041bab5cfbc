// What HTTP lets a configured header carry (RFC 9110 §5.1, §5.5): a name is a token, a value has no control
// characters but tab. Shared by the gateway's loader and the operator's webhook so both refuse the same
// definitions; returns a problem to name with the field, never throws.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- the control characters are what is refused
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

export function headerNameProblem(name: string): string | undefined {
  return TOKEN.test(name) ? undefined : `is not a valid header name: ${JSON.stringify(name)}`;
}

export function headerValueProblem(value: string): string | undefined {
  return CONTROL.test(value) ? 'a header value cannot contain control characters' : undefined;
}
