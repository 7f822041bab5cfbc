// Which authentication modes an API enables, as the auth steps' descriptors read it. Every enabled mode must pass,
// in Tyk Gateway's order (OAuth bearer, basic, HMAC, JWT, token, a JavaScript auth_check: proxy/step-order.ts); the session the later steps use is the
// one of the mode named by base_identity_provided_by (any mode's when it is unset).
import type { ApiSpec, BaseIdentity } from '../../definition/api-spec.ts';

/** The API needs a credential of some kind (else it is keyless: no access rights, no key limits). */
export function isAuthenticated(api: ApiSpec): boolean {
  const modes = api.jwt !== undefined || api.basic !== undefined || api.hmac !== undefined || api.oauth !== undefined;
  return api.auth.kind === 'token' || modes || api.plugins?.authCheck !== undefined || api.grpcPlugins?.auth !== undefined;
}

/** This mode's session becomes the request's (base_identity_provided_by). */
export function providesIdentity(api: ApiSpec, mode: BaseIdentity): boolean {
  return api.baseIdentity === '' || api.baseIdentity === mode;
}
