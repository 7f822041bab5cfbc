// How a Classic API authenticates: keyless or not (never both with standard auth), JWT (a signing method the
// gateway verifies and a usable jwt_source), basic auth with credentials from the body (two RE2 regexps with a
// group), HMAC request signing (known algorithms), token signature validation, and base_identity_provided_by.
import { compileCredentialRegexp } from '../domain/body-credentials.ts';
import { unknownHmacAlgorithm } from '../domain/http-signature.ts';
import { JWT_SIGNING_METHODS, parseJwtSource, type JwtSigningMethod } from '../domain/jwt-source.ts';
import { parseTokenSignature } from '../domain/token-signature.ts';
import { childPath, forbidden, invalid, required, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

/** base_identity_provided_by values the gateway serves ('' or absent: every enabled mode, the last one wins). */
export const BASE_IDENTITIES = ['auth_token', 'jwt_claim', 'basic_auth_user', 'hmac_key', 'oauth_key'];

/** Token options the gateway does not implement, keyless together with standard auth, the JWT and basic settings. */
export function checkAuth(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const errors: RuleProblem[] = [];
  if (spec.use_keyless === true) {
    if (spec.use_standard_auth === true) {
      errors.push(
        forbidden(childPath(base, 'use_keyless'), `a keyless API cannot also use standard auth (${childPath(base, 'use_standard_auth')}); set one of them`),
      );
    }
    return errors;
  }
  errors.push(...checkJwt(spec, base), ...checkBasicAuth(spec, base), ...checkHmac(spec, base));
  const identity = spec.base_identity_provided_by;
  if (typeof identity === 'string' && identity !== '' && !BASE_IDENTITIES.includes(identity)) {
    errors.push(invalid(childPath(base, 'base_identity_provided_by'), identity, `must be one of ${BASE_IDENTITIES.join(', ')}, or empty`));
  }
  // Not keyless: the token settings are read from auth_configs.authToken, else from the legacy `auth`.
  const configs = asObject(spec.auth_configs);
  const [token, path] =
    configs && asObject(configs.authToken)
      ? [asObject(configs.authToken), childPath(base, 'auth_configs', 'authToken')]
      : [asObject(spec.auth), childPath(base, 'auth')];
  if (token?.validate_signature === true) {
    const result = parseTokenSignature(asObject(token.signature));
    if (!result.ok) {
      const field = childPath(path, 'signature', result.subfield);
      const given = asObject(token.signature)?.[result.subfield];
      errors.push(
        given === undefined || given === ''
          ? required(field, result.problem)
          : invalid(field, result.subfield === 'secret' ? '(redacted)' : given, result.problem),
      );
    }
  }
  return errors;
}

/** A JWT API needs a usable jwt_source (the gateway's own rule, api/jwt-source.ts) and a known signing method. */
function checkJwt(spec: Record<string, unknown>, base: string): RuleProblem[] {
  if (spec.enable_jwt !== true) return [];
  const method = spec.jwt_signing_method ?? 'hmac';
  if (typeof method !== 'string' || !(JWT_SIGNING_METHODS as readonly string[]).includes(method)) {
    return [
      invalid(
        childPath(base, 'jwt_signing_method'),
        JSON.stringify(method),
        `must be one of ${JWT_SIGNING_METHODS.join(', ')} (rsa also accepts RSA-PSS tokens)`,
      ),
    ];
  }
  const source = typeof spec.jwt_source === 'string' ? spec.jwt_source : undefined;
  const result = parseJwtSource(source, method as JwtSigningMethod);
  if (result.ok) return [];
  const field = childPath(base, 'jwt_source');
  return source
    ? [invalid(field, '(redacted)', result.problem)]
    : [required(field, 'a base64 secret or PEM public key, or a JWKS URL: tokens cannot be verified without it')];
}

/** HMAC signing: every allowed algorithm must be one the gateway verifies (api/http-signature.ts). */
function checkHmac(spec: Record<string, unknown>, base: string): RuleProblem[] {
  if (spec.enable_signature_checking !== true || !Array.isArray(spec.hmac_allowed_algorithms)) return [];
  const unknown = unknownHmacAlgorithm(spec.hmac_allowed_algorithms);
  return unknown ? [invalid(childPath(base, 'hmac_allowed_algorithms', unknown.index), unknown.value, unknown.problem)] : [];
}

/** Credentials from the body need both regexps, each compiling with a capture group (api/body-credentials.ts). */
function checkBasicAuth(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const options = asObject(spec.basic_auth);
  if (spec.use_basic_auth !== true || options?.extract_from_body !== true) return [];
  const errors: RuleProblem[] = [];
  for (const name of ['body_user_regexp', 'body_password_regexp']) {
    const source = typeof options[name] === 'string' ? options[name] : undefined;
    const result = compileCredentialRegexp(source);
    if (result.ok) continue;
    const field = childPath(base, 'basic_auth', name);
    errors.push(source ? invalid(field, source, result.problem) : required(field, 'a regular expression whose first group is the credential'));
  }
  return errors;
}
