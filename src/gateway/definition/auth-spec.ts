// How an API authenticates, as the proxy sees it (part of ApiSpec, api-spec.ts): where each mode's credential is
// read, JWT, basic authentication and HMAC signing settings, and which mode provides the session.
import type { JwtKeySource } from '../../domain/jwt-source.ts';
import type { TokenSignatureSettings } from '../../domain/token-signature.ts';
import type { HmacAlgorithm } from '../../domain/http-signature.ts';
import type { LinearRegexp } from '../../domain/bounded-regexp.ts';

/** Where a credential is read from (Tyk's precedence: cookie, then query parameter, then header). */
export type AuthSpec =
  | { kind: 'keyless' }
  /** No authentication token: the API authenticates only with its other modes (`jwt`, `basic`). */
  | { kind: 'none' }
  | { kind: 'token'; headerName: string; readHeader: boolean; paramName?: string; cookieName?: string; signature?: TokenSignatureSpec };

/** auth_configs.authToken.signature (validate_signature): hex(hash(key + secret + unix seconds)) in a header. */
export type TokenSignatureSpec = TokenSignatureSettings;

/** Where a mode's credential is read from (auth_configs.<mode>), with the token's precedence rules. */
export type CredentialSource = Omit<Extract<AuthSpec, { kind: 'token' }>, 'signature'>;

/** Where JWT verification keys come from (jwt_source, classified once at load by api/jwt-source.ts). */
export type { JwtKeySource };

export interface JwtSpec {
  credential: CredentialSource;
  signingMethod: 'hmac' | 'rsa' | 'ecdsa';
  source: JwtKeySource;
  skipKid: boolean;
  /** Claim naming the identity; `sub` when it is absent. */
  identityField?: string;
  policyField?: string;
  /** jwt_client_base_field: a claim naming a key whose first policy is the base policy when the policy claim gives none. */
  clientField?: string;
  defaultPolicies: string[];
  scopeClaim?: string;
  scopeToPolicy: Map<string, string>;
  /** Seconds. */
  skew: { exp: number; nbf: number; iat: number };
  /** OAS only (credentials/jwt-claims.ts); absent for Classic APIs, as Tyk skips them there. */
  claimChecks?: JwtClaimChecks;
}

/** The OAS JWT scheme's claim checks: empty lists and `jti: false` check nothing. */
export interface JwtClaimChecks {
  issuers: string[];
  audiences: string[];
  subjects: string[];
  jti: boolean;
}

export interface BasicAuthSpec {
  credential: CredentialSource;
  /** Seconds a verified username/password stays verified; 0 disables the cache. */
  cacheTtl: number;
  /** Credentials from the body (extract_from_body): the first group of each regexp; tried when the header fails. */
  body?: { user: LinearRegexp; password: LinearRegexp };
}

/** HMAC request signing (enable_signature_checking): `Signature keyId=..,algorithm=..,headers=..,signature=..`. */
export interface HmacSpec {
  credential: CredentialSource;
  /** Lower-case algorithm names accepted; empty accepts every supported one. */
  allowedAlgorithms: HmacAlgorithm[];
  /** Milliseconds the Date header may differ from now; <= 0 disables the window (a parsable Date is still required). */
  allowedClockSkewMs: number;
}

/** base_identity_provided_by: the mode whose session the request carries when several authenticate it. */
/** use_oauth2 with oauth_meta and notifications (Classic names). */
export interface OAuthSpec {
  allowedAccessTypes: ('authorization_code' | 'refresh_token' | 'password' | 'client_credentials')[];
  allowedAuthorizeTypes: ('code' | 'token')[];
  /** Empty: /oauth/authorize has nowhere to send the user and refuses. */
  authLoginRedirect: string;
  notifications?: { url: string; sharedSecret: string };
}

export type BaseIdentity = '' | 'auth_token' | 'jwt_claim' | 'basic_auth_user' | 'hmac_key' | 'oauth_key';
