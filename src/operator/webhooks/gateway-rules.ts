// What the gateway refuses when it loads a Classic API definition (src/gateway/definition: from-classic.ts,
// upstream-target.ts, listen-path.ts, compile.ts), restated for admission so `kubectl apply` fails at once instead
// of the resource syncing to a gateway that then refuses it. The operator may not import the gateway (DESIGN §2:
// no sideways arrows), so the rules are written again here; gateway-parity.test.ts feeds the same definitions to
// both and fails the moment they disagree (a gateway that learns JWT makes that test fail until this list drops it).
// Every function takes the raw spec value and the field path, and returns field errors (empty when accepted).
import { decodeBase64Template, TRANSFORMABLE_METHODS } from '../../api/base64-template.ts';
import { childPath, forbidden, invalid, keyPath, required, type FieldError } from './field-errors.ts';
import { asObject } from './untyped.ts';
import { unsupportedApiFields, unsupportedPathFields } from '../../api/unsupported-fields.ts';
import { circuitBreakerProblems } from '../../api/circuit-breakers.ts';
import { compileJsonSchema, newSchemaCompiler, type SchemaCompiler } from '../../json-schema/compile.ts';
import { corsOriginProblem, globalHeaderValueProblem, headerNameProblem, headerValueProblem } from '../../api/header-rules.ts';
import { compileCredentialRegexp } from '../../api/body-credentials.ts';
import { CERTIFICATE_ID_FIELDS, certificateIdProblem } from '../../api/certificate-ids.ts';
import { parseDomain } from '../../api/domain-pattern.ts';
import { JWT_SIGNING_METHODS, parseJwtSource, type JwtSigningMethod } from '../../api/jwt-source.ts';
import { parseTokenSignature } from '../../api/token-signature.ts';
import { unknownHmacAlgorithm } from '../../api/http-signature.ts';
import { upstreamTlsMapProblem } from '../../api/upstream-tls-maps.ts';
import { compileBoundedRegexp } from '../../api/bounded-regexp.ts';
import { rewriteTargetProblem } from '../../api/url-rewrite-checks.ts';

/** base_identity_provided_by values the gateway serves ('' or absent: every enabled mode, the last one wins). */
export const BASE_IDENTITIES = ['auth_token', 'jwt_claim', 'basic_auth_user', 'hmac_key', 'oauth_key'];

/** The version the gateway serves when an API declares none. */
export const DEFAULT_VERSION = 'Default';

/** `http(s)://host[:port][/base]`, or a host without a scheme (`<service>.<namespace>.svc:<port>`), meaning http. */
export function checkUpstreamTarget(value: unknown, field: string, isRequired: boolean): FieldError[] {
  if (value === undefined || value === '') {
    return isRequired ? [required(field, 'the upstream URL: http(s)://host[:port][/path] or <service>.<namespace>.svc:<port>')] : [];
  }
  if (typeof value !== 'string') return []; // the schema reports the type
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return [invalid(field, value, 'must be an absolute http(s) URL (http(s)://host[:port][/path]) or <service>.<namespace>.svc:<port>')];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [invalid(field, value, 'must be an http or https URL')];
  if (url.username || url.password) return [invalid(field, '(redacted)', 'must not carry credentials (user:password@)')];
  return [];
}

/** A literal path starting with '/', without wildcards, query, fragment, escapes or dot segments. */
export function checkListenPath(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === '') return [required(field, "the path the API answers under on the gateway, starting with '/' (e.g. /httpbin)")];
  if (typeof value !== 'string') return [];
  if (!value.startsWith('/')) return [invalid(field, value, "must start with '/'")];
  if (/[{}?#%\\]/.test(value)) return [invalid(field, value, 'must be a literal path: no {}, ?, #, % or \\')];
  if (value.split('/').some((segment) => segment === '.' || segment === '..')) return [invalid(field, value, "must not contain '.' or '..' segments")];
  return [];
}

/** api_id ends up in URLs and file names on the gateway. */
export function checkApiId(value: unknown, field: string): FieldError[] {
  if (typeof value !== 'string') return [];
  return /^[A-Za-z0-9._~-]{1,128}$/.test(value) ? [] : [invalid(field, value, 'must be 1-128 characters of A-Z a-z 0-9 . _ ~ -')];
}

/** Token options the gateway does not implement, keyless together with standard auth, the JWT and basic settings. */
export function checkAuth(spec: Record<string, unknown>, base: string): FieldError[] {
  const errors: FieldError[] = [];
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

/** Certificate store ids (`certificates`, `client_certificates`): the gateway's rule, api/certificate-ids.ts. */
export function checkCertificateIds(spec: Record<string, unknown>, base: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of CERTIFICATE_ID_FIELDS) {
    const ids = spec[field];
    if (!Array.isArray(ids)) continue; // the schema reports the type
    const problem = certificateIdProblem(ids);
    if (!problem) continue;
    const bad: unknown = ids[problem[0]];
    errors.push(invalid(`${childPath(base, field)}[${problem[0]}]`, typeof bad === 'string' ? bad : JSON.stringify(bad), problem[1]));
  }
  return errors;
}

/** `domain`: a host, or a whole first label as a wildcard (the gateway's rule, api/domain-pattern.ts). */
export function checkDomain(value: unknown, field: string): FieldError[] {
  if (typeof value !== 'string' || value === '') return [];
  const pattern = parseDomain(value);
  return 'problem' in pattern ? [invalid(field, value, pattern.problem.slice(value.length + 2))] : [];
}

/** A JWT API needs a usable jwt_source (the gateway's own rule, api/jwt-source.ts) and a known signing method. */
function checkJwt(spec: Record<string, unknown>, base: string): FieldError[] {
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

/** upstream_certificates and pinned_public_keys: host patterns to certificate ids (api/upstream-tls-maps.ts). */
export function checkUpstreamTlsMaps(spec: Record<string, unknown>, base: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['upstream_certificates', 'pinned_public_keys']) {
    const map = asObject(spec[field]);
    const problem = map ? upstreamTlsMapProblem(map) : undefined;
    if (problem) errors.push(invalid(keyPath(childPath(base, field), problem.key), problem.key, problem.problem));
  }
  return errors;
}

/** HMAC signing: every allowed algorithm must be one the gateway verifies (api/http-signature.ts). */
function checkHmac(spec: Record<string, unknown>, base: string): FieldError[] {
  if (spec.enable_signature_checking !== true || !Array.isArray(spec.hmac_allowed_algorithms)) return [];
  const unknown = unknownHmacAlgorithm(spec.hmac_allowed_algorithms);
  return unknown ? [invalid(childPath(base, 'hmac_allowed_algorithms', unknown.index), unknown.value, unknown.problem)] : [];
}

/** Credentials from the body need both regexps, each compiling with a capture group (api/body-credentials.ts). */
function checkBasicAuth(spec: Record<string, unknown>, base: string): FieldError[] {
  const options = asObject(spec.basic_auth);
  if (spec.use_basic_auth !== true || options?.extract_from_body !== true) return [];
  const errors: FieldError[] = [];
  for (const name of ['body_user_regexp', 'body_password_regexp']) {
    const source = typeof options[name] === 'string' ? options[name] : undefined;
    const result = compileCredentialRegexp(source);
    if (result.ok) continue;
    const field = childPath(base, 'basic_auth', name);
    errors.push(source ? invalid(field, source, result.problem) : required(field, 'a regular expression whose first group is the credential'));
  }
  return errors;
}

/**
 * Body transforms (extended_paths.transform, transform_response) as the gateway compiles them: a request transform
 * on PUT, POST or PATCH, a blob that decodes as base64; header transforms and URL rewrites (below). Whether the template parses is the gateway's to say (the operator cannot load the engine: it
 * lives in the gateway); its refusal names the field and Go's error in the resource's status. Entries need a path.
 */
function checkExtendedPaths(value: unknown, field: string): FieldError[] {
  const paths = asObject(value);
  if (!paths) return [];
  const errors: FieldError[] = [];
  for (const list of ['transform', 'transform_response']) {
    const transforms = Array.isArray(paths[list]) ? (paths[list] as unknown[]) : [];
    transforms.forEach((entry, index) => {
      const transform = asObject(entry);
      if (!transform || transform.disabled === true) return;
      const at = childPath(field, list, index);
      if (list === 'transform' && typeof transform.method === 'string' && !TRANSFORMABLE_METHODS.has(transform.method.toUpperCase())) {
        errors.push(invalid(childPath(at, 'method'), transform.method, 'must be PUT, POST or PATCH: only a request with a body is transformed'));
      }
      const data = asObject(transform.template_data);
      if (data?.template_mode === 'blob' && typeof data.template_source === 'string' && decodeBase64Template(data.template_source) === undefined) {
        errors.push(
          invalid(childPath(at, 'template_data', 'template_source'), data.template_source, 'must be a base64-encoded template (template_mode: blob)'),
        );
      }
    });
  }
  for (const list of ['transform_headers', 'transform_response_headers']) errors.push(...checkHeaderTransforms(paths[list], childPath(field, list)));
  errors.push(...checkUrlRewrites(paths.url_rewrites, childPath(field, 'url_rewrites')));
  for (const use of unsupportedPathFields(paths)) errors.push(forbidden(`${field}.${use.field}`, use.message));
  for (const problem of circuitBreakerProblems(paths.circuit_breakers))
    errors.push(required(`${childPath(field, 'circuit_breakers')}${problem.field}`, problem.message));
  const validations = Array.isArray(paths.validate_json) ? (paths.validate_json as unknown[]) : [];
  let compiler: SchemaCompiler | undefined;
  validations.forEach((entry, index) => {
    const rule = asObject(entry);
    const schema = asObject(rule?.schema);
    if (!rule || rule.disabled === true || !schema) return;
    compiler ??= newSchemaCompiler();
    const compiled = compileJsonSchema(compiler, schema);
    if ('problem' in compiled) errors.push(invalid(childPath(field, 'validate_json', index, 'schema'), '(schema)', compiled.problem));
  });
  for (const list of ['white_list', 'black_list', 'ignored']) {
    const entries = Array.isArray(paths[list]) ? (paths[list] as unknown[]) : [];
    entries.forEach((entry, index) => {
      const meta = asObject(entry);
      if (meta && meta.disabled !== true && (meta.path === undefined || meta.path === '')) {
        errors.push(required(childPath(field, list, index, 'path'), 'the endpoint path, relative to the listen path'));
      }
    });
  }
  return errors;
}

/** Header transforms as header-transforms.ts compiles them: names HTTP can carry, values without control characters. */
function checkHeaderTransforms(value: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  (Array.isArray(value) ? (value as unknown[]) : []).forEach((entry, index) => {
    const rule = asObject(entry);
    if (!rule || rule.disabled === true) return;
    const at = childPath(field, index);
    (Array.isArray(rule.delete_headers) ? (rule.delete_headers as unknown[]) : []).forEach((name, i) => {
      const problem = typeof name === 'string' ? headerNameProblem(name) : undefined;
      if (problem) errors.push(invalid(childPath(at, 'delete_headers', i), name, problem));
    });
    for (const [name, text] of Object.entries(asObject(rule.add_headers) ?? {})) {
      const problem = headerNameProblem(name) ?? (typeof text === 'string' ? headerValueProblem(text) : undefined);
      if (problem) errors.push(invalid(keyPath(childPath(at, 'add_headers'), name), name, problem));
    }
  });
  return errors;
}

const RESPONSE_PROCESSORS = ['response_body_transform', 'header_injector'];

/**
 * response_processors as from-classic.ts checks them: only the processors the gateway implements, and
 * response_body_transform listed when a version in use has transform_response entries.
 */
export function checkResponseProcessors(spec: Record<string, unknown>, base: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  (Array.isArray(spec.response_processors) ? (spec.response_processors as unknown[]) : []).forEach((entry, index) => {
    const name = asObject(entry)?.name;
    if (typeof name !== 'string') return;
    names.add(name);
    if (!RESPONSE_PROCESSORS.includes(name))
      errors.push(
        invalid(childPath(base, 'response_processors', index, 'name'), name, `is not supported by this gateway (supported: ${RESPONSE_PROCESSORS.join(', ')})`),
      );
  });
  if (names.has('response_body_transform')) return errors;
  const versions = asObject(asObject(spec.version_data)?.versions) ?? {};
  const infos = Object.keys(versions).length > 0 ? Object.values(versions).map((v) => asObject(v) ?? {}) : [{}];
  const transforms = (paths: unknown): boolean => {
    const list = asObject(paths)?.transform_response;
    return Array.isArray(list) && list.some((entry) => asObject(entry)?.disabled !== true);
  };
  if (infos.some((info) => info.use_extended_paths !== false && transforms(info.extended_paths !== undefined ? info.extended_paths : spec.extended_paths))) {
    errors.push(
      required(
        childPath(base, 'response_processors'),
        'must list {"name": "response_body_transform"} when extended_paths.transform_response is used (Tyk ignores the transforms without it)',
      ),
    );
  }
  return errors;
}

/** URL rewrites as url-rewrites.ts compiles them: RE2 regexps (linear time), targets on the API's upstream. */
function checkUrlRewrites(value: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const pattern = (source: unknown, at: string): void => {
    if (typeof source !== 'string') return;
    const result = compileBoundedRegexp(source);
    if (!result.ok) errors.push(invalid(at, source, result.problem));
  };
  const target = (text: unknown, at: string): void => {
    const problem = typeof text === 'string' ? rewriteTargetProblem(text) : undefined;
    if (problem) errors.push(invalid(at, String(text), problem));
  };
  (Array.isArray(value) ? (value as unknown[]) : []).forEach((entry, index) => {
    const rule = asObject(entry);
    if (!rule || rule.disabled === true) return;
    const at = childPath(field, index);
    pattern(rule.match_pattern, childPath(at, 'match_pattern'));
    target(rule.rewrite_to, childPath(at, 'rewrite_to'));
    (Array.isArray(rule.triggers) ? (rule.triggers as unknown[]) : []).forEach((item, t) => {
      const trigger = asObject(item) ?? {};
      const options = asObject(trigger.options) ?? {};
      const optionsAt = childPath(at, 'triggers', t, 'options');
      for (const [option, matches] of Object.entries(options)) {
        if (option === 'payload_matches') pattern(asObject(matches)?.match_rx, childPath(optionsAt, option, 'match_rx'));
        else
          for (const [name, match] of Object.entries(asObject(matches) ?? {}))
            pattern(asObject(match)?.match_rx, childPath(keyPath(childPath(optionsAt, option), name), 'match_rx'));
      }
      target(trigger.rewrite_to, childPath(at, 'triggers', t, 'rewrite_to'));
    });
  });
  return errors;
}

/** Versions: the default must exist; a not_versioned API with several versions must name its default. */
export function checkVersionData(spec: Record<string, unknown>, base: string): FieldError[] {
  const field = childPath(base, 'version_data');
  const data = asObject(spec.version_data) ?? {};
  const errors: FieldError[] = [];
  const versions = asObject(data.versions) ?? {};
  const declared = Object.keys(versions);
  for (const name of declared) {
    const info = asObject(versions[name]);
    const at = keyPath(childPath(field, 'versions'), name);
    if (typeof info?.expires === 'string' && info.expires !== '' && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(info.expires)) {
      errors.push(invalid(childPath(at, 'expires'), info.expires, 'must look like 2006-01-02 15:04 (UTC), or be empty for no expiry'));
    }
    errors.push(...checkUpstreamTarget(info?.override_target, childPath(at, 'override_target'), false));
    const legacy = asObject(info?.paths) ?? {};
    for (const list of ['white_list', 'black_list', 'ignored']) {
      const paths = Array.isArray(legacy[list]) ? (legacy[list] as unknown[]) : [];
      paths.forEach((path, index) => {
        if (path === '') errors.push(required(childPath(at, 'paths', list, index), 'the endpoint path, relative to the listen path'));
      });
    }
    errors.push(...checkHeaderEdits(info?.global_headers, info?.global_headers_remove, at, 'global_headers'));
    errors.push(...checkHeaderEdits(info?.global_response_headers, info?.global_response_headers_remove, at, 'global_response_headers'));
  }
  // Without versions the gateway serves one, named Default.
  const names = declared.length > 0 ? declared : [DEFAULT_VERSION];
  const defaultVersion = typeof data.default_version === 'string' && data.default_version !== '' ? data.default_version : undefined;
  if (defaultVersion !== undefined && !names.includes(defaultVersion)) {
    errors.push(
      invalid(
        childPath(field, 'default_version'),
        defaultVersion,
        `must name a version of ${childPath(field, 'versions')}: ${names.map((n) => JSON.stringify(n)).join(', ')}`,
      ),
    );
  }
  const notVersioned = typeof data.not_versioned === 'boolean' ? data.not_versioned : names.length <= 1;
  if (notVersioned && defaultVersion === undefined && names.length > 1) {
    errors.push(required(childPath(field, 'default_version'), 'a not_versioned API with several versions must name the one it serves'));
  }
  return errors;
}

/** The extended_paths each version applies: its own, else the API's (unless use_extended_paths is false). */
export function checkExtendedPathsInUse(spec: Record<string, unknown>, base: string): FieldError[] {
  const versions = asObject(asObject(spec.version_data)?.versions) ?? {};
  const infos = Object.keys(versions).length > 0 ? Object.entries(versions) : [[DEFAULT_VERSION, {}] as [string, unknown]];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [name, value] of infos) {
    const info = asObject(value) ?? {};
    if (info.use_extended_paths === false) continue;
    const own = info.extended_paths !== undefined;
    const field = own ? childPath(keyPath(childPath(base, 'version_data', 'versions'), name), 'extended_paths') : childPath(base, 'extended_paths');
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push(...checkExtendedPaths(own ? info.extended_paths : spec.extended_paths, field));
  }
  return errors;
}

/** A version's global header edits (`<name>` and `<name>_remove`), as the gateway compiles them (api/header-rules.ts). */
function checkHeaderEdits(set: unknown, remove: unknown, at: string, name: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Array.isArray(remove)) {
    remove.forEach((header, index) => {
      const problem = typeof header === 'string' ? headerNameProblem(header) : undefined;
      if (problem) errors.push(invalid(childPath(at, `${name}_remove`, index), header, problem));
    });
  }
  for (const [header, value] of Object.entries(asObject(set) ?? {})) {
    const field = keyPath(childPath(at, name), header);
    const problem = headerNameProblem(header) ?? (typeof value === 'string' ? globalHeaderValueProblem(value) : undefined);
    if (problem) errors.push(invalid(field, typeof value === 'string' ? value : header, problem));
  }
  return errors;
}

/** CORS (when enabled), as the gateway compiles it: origins with one `*` at most, header names that are HTTP tokens. */
export function checkCors(spec: Record<string, unknown>, base: string): FieldError[] {
  const cors = asObject(spec.CORS);
  if (!cors || cors.enable !== true) return [];
  const errors: FieldError[] = [];
  const each = (list: string, problemOf: (value: string) => string | undefined): void => {
    const values = Array.isArray(cors[list]) ? (cors[list] as unknown[]) : [];
    values.forEach((value, index) => {
      const problem = typeof value === 'string' ? problemOf(value) : undefined;
      if (problem) errors.push(invalid(childPath(base, 'CORS', list, index), value, problem));
    });
  };
  each('allowed_origins', corsOriginProblem);
  each('allowed_headers', (name) => (name === '*' ? undefined : headerNameProblem(name)));
  each('exposed_headers', headerNameProblem);
  return errors;
}

/** Fields of Tyk the gateway does not implement, refused while in use (api/unsupported-fields.ts). */
export function checkUnsupportedFields(spec: Record<string, unknown>, base: string): FieldError[] {
  return unsupportedApiFields(spec).map((use) => forbidden(childPath(base, use.field), use.message));
}
