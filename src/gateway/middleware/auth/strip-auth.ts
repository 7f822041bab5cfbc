// strip_auth_data: the credential never reaches the upstream. Removes the auth header, the query parameter (when
// the API reads one) and the cookie with exactly the credential's name (Tyk removes the first cookie whose
// name merely starts with it).
import { cookieHeaderWithout } from '../../../http/cookie-header.ts';
import type { Step } from '../../pipeline/contract.ts';
import type { TokenAuth } from './credential.ts';

export function stripAuth(auth: TokenAuth): Step {
  const header = auth.headerName.toLowerCase();
  return (ctx) => {
    delete ctx.req.headers[header];
    if (auth.paramName && ctx.query) {
      const params = new URLSearchParams(ctx.query);
      if (params.has(auth.paramName)) {
        params.delete(auth.paramName);
        const rest = params.toString();
        ctx.query = rest ? `?${rest}` : '';
      }
    }
    if (auth.cookieName && ctx.req.headers.cookie) {
      const kept = cookieHeaderWithout(ctx.req.headers.cookie, auth.cookieName);
      if (kept === undefined) delete ctx.req.headers.cookie;
      else ctx.req.headers.cookie = kept;
    }
    return false;
  };
}
