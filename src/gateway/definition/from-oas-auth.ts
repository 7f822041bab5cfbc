// How an OAS API authenticates (part of from-oas.ts): the security schemes x-gw-api-gateway enables and
// components.securitySchemes declares: apiKey in a header, query parameter or cookie, http bearer, http bearer with
// bearerFormat JWT, http basic; an apiKey scheme's signatureValidation; server.authentication.hmac; and Enabled with no scheme at all: the auth token in Authorization (Tyk's fallback),
// unless a custom authentication plugin (server.authentication.custom) authenticates the API.
// baseIdentityProvider naming the session's mode.
import { GW_EXTENSION, OasBasicScheme, OasJwtScheme, OasOAuthScheme, OasTokenScheme, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import type { z } from 'zod';
import {
  DefinitionError,
  type AuthSpec,
  type BaseIdentity,
  type BasicAuthSpec,
  type CredentialSource,
  type HmacSpec,
  type OAuthSpec,
  type JwtSpec,
  type TokenSignatureSpec,
} from './api-spec.ts';
import { loadBodyRegexps } from './load-body-regexps.ts';
import { loadJwtSource } from './load-jwt-source.ts';
import { unknownHmacAlgorithm, type HmacAlgorithm } from '../../domain/http-signature.ts';
import { loadTokenSignature } from './load-token-signature.ts';
import { usesJsAuthCheck } from '../../domain/js-plugins.ts';
import { oasPluginsAsClassic } from '../../domain/oas-plugins.ts';
import { grpcAuthEnabled } from '../../domain/grpc-auth-plugin.ts';

const X = GW_EXTENSION;

export type OasModes = { auth: AuthSpec; jwt?: JwtSpec; basic?: BasicAuthSpec; hmac?: HmacSpec; oauth?: OAuthSpec; baseIdentity: BaseIdentity };

const BASE_IDENTITIES: Record<string, BaseIdentity> = {
  '': '',
  AuthToken: 'auth_token',
  JWTClaim: 'jwt_claim',
  BasicAuthUser: 'basic_auth_user',
  HMACKey: 'hmac_key',
  auth_token: 'auth_token',
  jwt_claim: 'jwt_claim',
  basic_auth_user: 'basic_auth_user',
  hmac_key: 'hmac_key',
};

export function oasAuth(doc: OasDocument, ext: GwExtension): OasModes {
  const authentication = ext.server.authentication;
  if (!authentication?.enabled) return { auth: { kind: 'keyless' }, baseIdentity: '' };
  const field = `${X}.server.authentication.securitySchemes`;
  const schemes = authentication.securitySchemes ?? {};
  const enabled = Object.entries(schemes)
    .filter(([, s]) => s.enabled)
    .map(([name]) => name);
  const baseIdentity = BASE_IDENTITIES[authentication.baseIdentityProvider ?? ''];
  if (baseIdentity === undefined)
    throw new DefinitionError(`${X}.server.authentication.baseIdentityProvider is not a known mode: ${authentication.baseIdentityProvider}`);
  // Enabled with no scheme: Tyk Gateway's fallback, the standard auth token in the Authorization header (its Classic
  // form has use_keyless false and no other mode, which Tyk serves with AuthKey). A custom authentication plugin
  // (server.authentication.custom: plugins/auth-plugin.ts, the gRPC auth hook) is such another mode.
  if (enabled.length === 0 && !authentication.hmac?.enabled && !usesCustomAuthentication(ext))
    return { auth: { kind: 'token', headerName: 'Authorization', readHeader: true }, baseIdentity };
  let headerName: string | undefined;
  let paramName: string | undefined;
  let cookieName: string | undefined;
  let jwt: JwtSpec | undefined;
  let basic: BasicAuthSpec | undefined;
  let signature: TokenSignatureSpec | undefined;
  let oauth: OAuthSpec | undefined;
  for (const name of enabled) {
    const declared = doc.components?.securitySchemes?.[name];
    if (!declared) throw new DefinitionError(`${field}.${name} is not declared in components.securitySchemes`);
    const scheme = declared.type === 'http' ? declared.scheme?.toLowerCase() : undefined;
    if (declared.type === 'apiKey' && declared.name) {
      signature ??= oasTokenSignature(settings(OasTokenScheme, schemes[name], `${field}.${name}`), `${field}.${name}`);
      if (declared.in === 'header') headerName = declared.name;
      else if (declared.in === 'query') paramName = declared.name;
      else if (declared.in === 'cookie') cookieName = declared.name;
      else throw new DefinitionError(`components.securitySchemes.${name}.in must be header, query or cookie`);
    } else if (scheme === 'bearer' && declared.bearerFormat?.toUpperCase() === 'JWT') {
      jwt = oasJwt(settings(OasJwtScheme, schemes[name], `${field}.${name}`), `${field}.${name}`);
    } else if (scheme === 'bearer') {
      headerName = 'Authorization';
    } else if (declared.type === 'oauth2') {
      oauth = oasOAuth(settings(OasOAuthScheme, schemes[name], `${field}.${name}`), declared.flows ?? {});
    } else if (scheme === 'basic') {
      basic = oasBasic(settings(OasBasicScheme, schemes[name], `${field}.${name}`), `${field}.${name}`);
    } else {
      throw new DefinitionError(`components.securitySchemes.${name} (type ${declared.type}) is not supported by this gateway yet`);
    }
  }
  const token = headerName !== undefined || paramName !== undefined || cookieName !== undefined;
  const auth: AuthSpec = token
    ? {
        kind: 'token',
        headerName: headerName ?? 'Authorization',
        readHeader: headerName !== undefined,
        ...(paramName ? { paramName } : {}),
        ...(cookieName ? { cookieName } : {}),
        ...(signature ? { signature } : {}),
      }
    : { kind: 'none' };
  const hmac = authentication.hmac?.enabled ? oasHmac(authentication.hmac) : undefined;
  return { auth, ...(jwt ? { jwt } : {}), ...(basic ? { basic } : {}), ...(hmac ? { hmac } : {}), ...(oauth ? { oauth } : {}), baseIdentity };
}

/** server.authentication.custom names a JavaScript or gRPC plugin that authenticates the API (domain/oas-plugins.ts). */
function usesCustomAuthentication(ext: GwExtension): boolean {
  const { classic } = oasPluginsAsClassic(ext);
  return usesJsAuthCheck(classic) || grpcAuthEnabled(classic);
}

/** OAS flows -> Tyk's grant names, as Tyk Gateway fills oauth_meta from an oauth2 scheme. */
const OAUTH_FLOWS = { clientCredentials: 'client_credentials', authorizationCode: 'authorization_code', password: 'password' } as const;

function oasOAuth(scheme: z.infer<typeof OasOAuthScheme>, flows: Record<string, unknown>): OAuthSpec {
  const url = scheme.notifications?.onKeyChangeUrl ?? '';
  return {
    allowedAccessTypes: [
      ...Object.entries(OAUTH_FLOWS)
        .filter(([flow]) => flows[flow] !== undefined)
        .map(([, grant]) => grant),
      ...(scheme.refreshToken ? (['refresh_token'] as const) : []),
    ],
    allowedAuthorizeTypes: scheme.allowedAuthorizeTypes ?? [],
    authLoginRedirect: scheme.authLoginRedirect ?? '',
    ...(url ? { notifications: { url, sharedSecret: scheme.notifications?.sharedSecret ?? '' } } : {}),
  };
}

/** signatureValidation of an apiKey scheme, read with the Classic rule (load-token-signature.ts). */
function oasTokenSignature(scheme: z.infer<typeof OasTokenScheme>, field: string): TokenSignatureSpec | undefined {
  const check = scheme.signatureValidation;
  if (!check?.enabled) return undefined;
  return loadTokenSignature(
    {
      algorithm: check.algorithm,
      header: check.header,
      use_param: check.query?.enabled ?? false,
      param_name: check.query?.name,
      secret: check.secret,
      allowed_clock_skew: check.allowedClockSkew,
      error_code: check.errorCode,
      error_message: check.errorMessage,
    },
    `${field}.signatureValidation`,
    { error_code: 'errorCode' },
  );
}

/** server.authentication.hmac, read with the Classic rule (allowed algorithms, skew in milliseconds). */
function oasHmac(hmac: NonNullable<NonNullable<GwExtension['server']['authentication']>['hmac']>): HmacSpec {
  const allowed = hmac.allowedAlgorithms ?? [];
  const unknown = unknownHmacAlgorithm(allowed);
  if (unknown) throw new DefinitionError(`${X}.server.authentication.hmac.allowedAlgorithms[${unknown.index}] ${unknown.problem}: ${unknown.value}`);
  return {
    credential: AUTHORIZATION,
    allowedAlgorithms: allowed.map((name) => name.toLowerCase() as HmacAlgorithm),
    allowedClockSkewMs: hmac.allowedClockSkew ?? 0,
  };
}

function settings<T extends z.ZodType>(schema: T, value: unknown, field: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DefinitionError(`${[field, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

const AUTHORIZATION: CredentialSource = { kind: 'token', headerName: 'Authorization', readHeader: true };

function oasJwt(scheme: z.infer<typeof OasJwtScheme>, field: string): JwtSpec {
  const signingMethod = scheme.signingMethod ?? 'hmac';
  return {
    credential: AUTHORIZATION,
    signingMethod,
    source: loadJwtSource(scheme.source, signingMethod, `${field}.source`),
    skipKid: scheme.skipKid ?? false,
    ...(scheme.identityBaseField ? { identityField: scheme.identityBaseField } : {}),
    ...(scheme.policyFieldName ? { policyField: scheme.policyFieldName } : {}),
    ...(scheme.clientBaseField ? { clientField: scheme.clientBaseField } : {}),
    defaultPolicies: scheme.defaultPolicies ?? [],
    ...(scheme.scopes?.claimName ? { scopeClaim: scheme.scopes.claimName } : {}),
    scopeToPolicy: new Map((scheme.scopes?.scopeToPolicyMapping ?? []).map((m) => [m.scope, m.policyId])),
    skew: { exp: scheme.expiresAtValidationSkew ?? 0, nbf: scheme.notBeforeValidationSkew ?? 0, iat: scheme.issuedAtValidationSkew ?? 0 },
    claimChecks: {
      issuers: scheme.allowedIssuers ?? [],
      audiences: scheme.allowedAudiences ?? [],
      subjects: scheme.allowedSubjects ?? [],
      jti: scheme.jtiValidation?.enabled ?? false,
    },
  };
}

function oasBasic(scheme: z.infer<typeof OasBasicScheme>, field: string): BasicAuthSpec {
  const body = scheme.extractCredentialsFromBody;
  return {
    credential: AUTHORIZATION,
    cacheTtl: scheme.disableCaching ? 0 : scheme.cacheTTL || 60,
    ...(body?.enabled
      ? { body: loadBodyRegexps(body.userRegexp, body.passwordRegexp, `${field}.extractCredentialsFromBody`, ['userRegexp', 'passwordRegexp']) }
      : {}),
  };
}
