// strip_auth_data: the credential never reaches the upstream. Removes the auth header, the query parameter (when
// the API reads one) and the cookie with exactly the credential's name (Tyk removes the first cookie whose
// name merely starts with it).
import { cookieHeaderWithout } from '../../../http/cookie-header.ts';
import type { ApiSpec } from '../../definition/api-spec.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import type { TokenAuth } from './credential.ts';

/** Never answers: always false, synchronously. */
export function stripAuth(auth: TokenAuth): (ctx: ProxyContext) => false {
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

/** use_oauth2: the bearer token is read from the Authorization header only (oauth-bearer.ts). */
const OAUTH_BEARER: TokenAuth = { kind: 'token', headerName: 'Authorization', readHeader: true };

/** The credential of every enabled mode that reads one from the request (an OAuth-only API's bearer token too). */
function credentialSources(api: ApiSpec): TokenAuth[] {
  const sources = [
    api.oauth ? OAUTH_BEARER : undefined,
    api.basic?.credential,
    api.hmac?.credential,
    api.jwt?.credential,
    api.auth.kind === 'token' ? api.auth : undefined,
  ];
  return sources.filter((source) => source !== undefined);
}

export const stripAuthStep: StepDescriptor = {
  name: 'strip-auth',
  enabledFor: (api) => api.stripAuthData === true && credentialSources(api).length > 0,
  build: (api) => {
    const strips = credentialSources(api).map(stripAuth);
    if (strips.length === 1) return { request: strips[0]! };
    return {
      request: (ctx) => {
        for (const strip of strips) strip(ctx);
        return false;
      },
    };
  },
};
