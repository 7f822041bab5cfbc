// The one error type the HTTP services answer with (gateway management API, dashboard, governance hub, admission
// webhook): an HttpError carries a stable code, the HTTP status that code means (from the ONE table below) and a
// message that names the offending field or limit. Routes and stores throw them; each service's error handler
// turns them into its own wire shape ({"status":"error",...} or {"Status":"Error",...}). Never a 5xx for what a
// client sent: a code here is always a client's fault or a known state.
export type HttpErrorCode =
  | 'malformed' // the body is not JSON, too deep, or not the expected shape
  | 'invalid' // a field or parameter breaks a rule (the message names it)
  | 'unauthenticated' // a credential is missing or unknown
  | 'forbidden' // the credential may not do this
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict' // uniqueness, or an object still in use
  | 'too_large' // the body is over the size limit
  | 'unavailable'; // a bounded resource is busy (a queue is full): retry later

const STATUS: Record<HttpErrorCode, number> = {
  malformed: 400,
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unavailable: 503,
};

export class HttpError extends Error {
  readonly code: HttpErrorCode;
  readonly status: number;

  constructor(code: HttpErrorCode, message: string) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.status = STATUS[code];
  }
}
