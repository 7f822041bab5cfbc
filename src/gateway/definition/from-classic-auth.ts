// How a Classic API authenticates (part of from-classic.ts): keyless, the auth token (auth_configs.authToken or the
// legacy auth, with signature validation), JWT, basic authentication, HMAC request signing, and which enabled mode
// provides the session. What the definition must satisfy was checked before (definition-rules/auth.ts).
import { grpcAuthEnabled } from '../../domain/grpc-auth-plugin.ts';
import type { AuthConfig, ClassicApiDefinition } from '../../domain/classic.ts';
import type { z } from 'zod';
import {
  DefinitionError,
  type AuthSpec,
  type BaseIdentity,
  type BasicAuthSpec,
  type CredentialSource,
  type HmacSpec,
  type JwtSpec,
  type OAuthSpec,
} from './api-spec.ts';
import { loadBodyRegexps } from './load-body-regexps.ts';
import { loadJwtSource } from './load-jwt-source.ts';
import { loadTokenSignature } from './load-token-signature.ts';
import { unknownHmacAlgorithm, type HmacAlgorithm } from '../../domain/http-signature.ts';
import { usesJsAuthCheck } from '../../domain/js-plugins.ts';

export function classicAuth(def: ClassicApiDefinition): AuthSpec {
  if (def.use_keyless) return { kind: 'keyless' }; // never together with use_standard_auth (definition-rules/auth.ts)
  // Tyk adds the token check when use_standard_auth is set or when no other mode is (api_loader.go 551-556); a
  // JavaScript auth_check (plugins/auth-plugin.ts) or a gRPC plugin's (Tyk Gateway's coprocess auth) is such a mode.
  const otherMode = def.enable_jwt || def.use_basic_auth || def.enable_signature_checking || def.use_oauth2 || usesJsAuthCheck(def) || grpcAuthEnabled(def);
  if (!def.use_standard_auth && otherMode) return { kind: 'none' };
  const config = def.auth_configs?.authToken ?? def.auth ?? {};
  const field = def.auth_configs?.authToken ? 'auth_configs.authToken' : 'auth';
  const source = credentialSource(config);
  return config.validate_signature ? { ...source, signature: loadTokenSignature(config.signature, `${field}.signature`) } : source;
}

/** auth_configs.<mode> -> where the credential is read (default: the Authorization header). */
function credentialSource(config: z.infer<typeof AuthConfig>): CredentialSource {
  const headerName = config.auth_header_name || 'Authorization';
  return {
    kind: 'token',
    headerName,
    readHeader: !config.disable_header,
    ...(config.use_param ? { paramName: config.param_name || headerName } : {}),
    ...(config.use_cookie ? { cookieName: config.cookie_name || headerName } : {}),
  };
}

const BASE_IDENTITIES: Record<string, BaseIdentity> = {
  '': '',
  auth_token: 'auth_token',
  jwt_claim: 'jwt_claim',
  basic_auth_user: 'basic_auth_user',
  hmac_key: 'hmac_key',
  oauth_key: 'oauth_key',
};

/** use_oauth2: oauth_meta and notifications. */
export function classicOAuth(def: ClassicApiDefinition): OAuthSpec {
  const url = def.notifications?.oauth_on_keychange_url ?? '';
  return {
    allowedAccessTypes: def.oauth_meta?.allowed_access_types ?? [],
    allowedAuthorizeTypes: def.oauth_meta?.allowed_authorize_types ?? [],
    authLoginRedirect: def.oauth_meta?.auth_login_redirect ?? '',
    ...(url ? { notifications: { url, sharedSecret: def.notifications?.shared_secret ?? '' } } : {}),
  };
}

/** JWT, basic authentication and HMAC signing, and which of the enabled modes provides the session. */
export function classicModes(def: ClassicApiDefinition): { jwt?: JwtSpec; basic?: BasicAuthSpec; hmac?: HmacSpec; baseIdentity: BaseIdentity } {
  if (def.use_keyless) return { baseIdentity: '' };
  const baseIdentity = BASE_IDENTITIES[def.base_identity_provided_by ?? ''] ?? ''; // a known mode (definition-rules/auth.ts)
  const jwt = def.enable_jwt ? classicJwt(def) : undefined;
  const basic = def.use_basic_auth ? classicBasic(def) : undefined;
  const hmac = def.enable_signature_checking ? classicHmac(def) : undefined;
  return { ...(jwt ? { jwt } : {}), ...(basic ? { basic } : {}), ...(hmac ? { hmac } : {}), baseIdentity };
}

function classicHmac(def: ClassicApiDefinition): HmacSpec {
  const allowed = def.hmac_allowed_algorithms ?? [];
  const unknown = unknownHmacAlgorithm(allowed);
  if (unknown) throw new DefinitionError(`hmac_allowed_algorithms[${unknown.index}] ${unknown.problem}: ${unknown.value}`);
  return {
    credential: credentialSource(def.auth_configs?.hmac ?? {}),
    allowedAlgorithms: allowed.map((name) => name.toLowerCase() as HmacAlgorithm),
    allowedClockSkewMs: def.hmac_allowed_clock_skew ?? 0,
  };
}

function classicJwt(def: ClassicApiDefinition): JwtSpec {
  const signingMethod = def.jwt_signing_method ?? 'hmac';
  return {
    credential: credentialSource(def.auth_configs?.jwt ?? def.auth ?? {}),
    signingMethod,
    source: loadJwtSource(def.jwt_source, signingMethod, 'jwt_source'),
    skipKid: def.jwt_skip_kid ?? false,
    ...(def.jwt_identity_base_field ? { identityField: def.jwt_identity_base_field } : {}),
    ...(def.jwt_policy_field_name ? { policyField: def.jwt_policy_field_name } : {}),
    ...(def.jwt_client_base_field ? { clientField: def.jwt_client_base_field } : {}),
    defaultPolicies: def.jwt_default_policies ?? [],
    ...(def.jwt_scope_claim_name ? { scopeClaim: def.jwt_scope_claim_name } : {}),
    scopeToPolicy: new Map(Object.entries(def.jwt_scope_to_policy_mapping ?? {})),
    skew: { exp: def.jwt_expires_at_validation_skew ?? 0, nbf: def.jwt_not_before_validation_skew ?? 0, iat: def.jwt_issued_at_validation_skew ?? 0 },
  };
}

function classicBasic(def: ClassicApiDefinition): BasicAuthSpec {
  const options = def.basic_auth ?? {};
  return {
    credential: credentialSource(def.auth_configs?.basic ?? {}),
    cacheTtl: options.disable_caching ? 0 : options.cache_ttl || 60,
    ...(options.extract_from_body
      ? { body: loadBodyRegexps(options.body_user_regexp, options.body_password_regexp, 'basic_auth', ['body_user_regexp', 'body_password_regexp']) }
      : {}),
  };
}
