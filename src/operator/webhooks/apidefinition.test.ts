import { describe, expect, it } from 'vitest';
import { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import { defaultApiDefinition, validateApiDefinition } from './apidefinition.ts';
import { describeFieldError } from './field-errors.ts';
import { applyPatch } from './json-patch.ts';

const base = { name: 'httpbin', use_keyless: true, proxy: { listen_path: '/httpbin', target_url: 'http://httpbin.default.svc:8000' } };

/** What the apiserver stores after the mutating webhook: the object with our patch applied. */
function defaulted(spec: Record<string, unknown>): Record<string, unknown> {
  return applyPatch({ spec }, defaultApiDefinition(spec)).spec;
}

function messages(spec: unknown): string[] {
  return validateApiDefinition(spec).errors.map(describeFieldError);
}

describe('defaultApiDefinition', () => {
  it('adds auth_configs.authToken with the Authorization header to a standard-auth API without one', () => {
    const spec = defaulted({ ...base, use_keyless: false, use_standard_auth: true });
    expect(spec.auth_configs).toEqual({ authToken: { auth_header_name: 'Authorization' } });
  });

  it('adds only authToken when auth_configs exists (JSON Patch needs the parent to exist, and keeps siblings)', () => {
    const spec = { ...base, use_keyless: false, use_standard_auth: true, auth_configs: { basic: { auth_header_name: 'X' } } };
    expect(defaultApiDefinition(spec)).toContainEqual({ op: 'add', path: '/spec/auth_configs/authToken', value: { auth_header_name: 'Authorization' } });
    expect(defaulted(spec).auth_configs).toEqual({ basic: { auth_header_name: 'X' }, authToken: { auth_header_name: 'Authorization' } });
  });

  it('moves the legacy `auth` settings into authToken instead of overriding them', () => {
    const spec = defaulted({ ...base, use_keyless: false, use_standard_auth: true, auth: { auth_header_name: 'X-Key', use_param: true } });
    expect(spec.auth_configs).toEqual({ authToken: { auth_header_name: 'X-Key', use_param: true } });
    expect(validateApiDefinition(spec).warnings).toEqual([]);
  });

  it('leaves an existing authToken and a non standard-auth API alone', () => {
    expect(
      defaultApiDefinition({
        ...base,
        use_standard_auth: true,
        auth_configs: { authToken: { auth_header_name: 'X' } },
        version_data: { versions: { v1: { name: 'v1' } } },
      }),
    ).toEqual([]);
    expect(defaultApiDefinition({ ...base, version_data: { versions: { v1: { name: 'v1' } } } })).toEqual([]);
  });

  it('gives an API without versions one unversioned Default version that keeps applying extended_paths', () => {
    const spec = defaulted(base);
    expect(spec.version_data).toEqual({
      not_versioned: true,
      default_version: 'Default',
      versions: { Default: { name: 'Default', use_extended_paths: true } },
    });
    expect(ApiDefinitionSpec.safeParse(spec).success).toBe(true);
  });

  it('fills empty versions but keeps what the author set in version_data', () => {
    const spec = defaulted({ ...base, version_data: { not_versioned: false, versions: {} } });
    expect(spec.version_data).toEqual({
      not_versioned: false,
      default_version: 'Default',
      versions: { Default: { name: 'Default', use_extended_paths: true } },
    });
  });

  it('is idempotent: a defaulted object needs no further patch, and is valid', () => {
    const once = defaulted({ ...base, use_keyless: false, use_standard_auth: true });
    expect(defaultApiDefinition(once)).toEqual([]);
    expect(validateApiDefinition(once)).toEqual({ errors: [], warnings: [] });
  });

  it('patches nothing it cannot patch safely (no spec, or a parent of the wrong type)', () => {
    expect(defaultApiDefinition(undefined)).toEqual([]);
    expect(defaultApiDefinition({ ...base, use_standard_auth: true, auth_configs: 'x', version_data: 'y' })).toEqual([]);
  });
});

describe('validateApiDefinition', () => {
  it('accepts a plain keyless API and a standard-auth API', () => {
    expect(validateApiDefinition(base)).toEqual({ errors: [], warnings: [] });
    expect(
      validateApiDefinition({ ...base, use_keyless: false, use_standard_auth: true, auth_configs: { authToken: { auth_header_name: 'Authorization' } } })
        .errors,
    ).toEqual([]);
  });

  it('forbids keyless together with standard auth, naming spec.use_keyless', () => {
    expect(messages({ ...base, use_standard_auth: true })).toEqual([
      'spec.use_keyless: Forbidden: a keyless API cannot also use standard auth (spec.use_standard_auth); set one of them',
    ]);
  });

  it('accepts mutual TLS and checks the certificate ids it names, naming the entry', () => {
    expect(
      messages({
        ...base,
        use_mutual_tls_auth: true,
        client_certificates: ['org1' + 'a'.repeat(64)],
        domain: 'api.example.com',
        certificates: ['b'.repeat(64)],
      }),
    ).toEqual([]);
    expect(messages({ ...base, use_mutual_tls_auth: true, client_certificates: ['ok', ''] })).toEqual([
      'spec.client_certificates[1]: Invalid value: "": must be a certificate id as /gw/certs answers it (org id + SHA-256 hex), without spaces or commas',
    ]);
  });

  it('accepts keys derived from client certificates (use_certificate)', () => {
    expect(messages({ ...base, use_keyless: false, auth_configs: { authToken: { use_certificate: true } } })).toEqual([]);
  });

  it('accepts a proxy-only GraphQL API and refuses an SDL the gateway cannot build, naming spec.graphql.schema and the line', () => {
    const graphql = (extra: Record<string, unknown>) => messages({ ...base, graphql: { enabled: true, execution_mode: 'proxyOnly', ...extra } });
    expect(graphql({ schema: 'type Query { hello: String }' })).toEqual([]);
    expect(graphql({ schema: 'type Query {\n  hello: Strng\n}' })).toEqual([
      'spec.graphql.schema: Invalid value: "(schema)": line 2, column 10: Unknown type "Strng". Did you mean "String"?',
    ]);
    expect(graphql({ schema: 'type Query { hello String }' })).toEqual([
      'spec.graphql.schema: Invalid value: "(schema)": line 1, column 20: syntax error: Expected ":", found Name "String".',
    ]);
    expect(graphql({})).toEqual(['spec.graphql.schema: Required value: the GraphQL schema (SDL) requests are validated against, when graphql.enabled is true']);
    expect(graphql({ execution_mode: 'executionEngine', schema: 'type Query { a: Int }' })).toEqual([]); // UDG, no data source yet
    expect(graphql({ execution_mode: 'federation', schema: 'type Query { a: Int }' })).toEqual([
      'spec.graphql.execution_mode: Unsupported value: "federation": supported values: "", "proxyOnly", "executionEngine", "supergraph", "subgraph"',
    ]);
    expect(graphql({ execution_mode: 'supergraph' })).toEqual([
      'spec.graphql.supergraph.subgraphs: Required value: a supergraph API needs its subgraphs (name, url, sdl), or a graph_ref naming a SuperGraph',
    ]);
    expect(messages({ ...base, graph_ref: 'social', graphql: { enabled: true, execution_mode: 'supergraph' } })).toEqual([]); // the SuperGraph brings them
    expect(messages({ ...base, graph_ref: 'users', graphql: { enabled: true, execution_mode: 'subgraph' } })).toEqual([]);
  });

  it('accepts JWT and basic auth, and checks their fields, naming each', () => {
    const jwt = { ...base, use_keyless: false, enable_jwt: true };
    expect(messages({ ...jwt, jwt_source: 'c2VjcmV0', use_basic_auth: true, base_identity_provided_by: 'jwt_claim' })).toEqual([]);
    expect(messages({ ...jwt, jwt_signing_method: 'rsa', jwt_source: 'https://idp.example.com/jwks.json' })).toEqual([]);
    expect(messages(jwt)).toEqual(['spec.jwt_source: Required value: a base64 secret or PEM public key, or a JWKS URL: tokens cannot be verified without it']);
    expect(messages({ ...jwt, jwt_signing_method: 'rsa', jwt_source: 'c2VjcmV0' })).toEqual([
      'spec.jwt_source: Invalid value: "(redacted)": is not a PEM public key or certificate (signing method rsa)',
    ]);
    expect(messages({ ...jwt, jwt_signing_method: 'rsa-pss', jwt_source: 'c2VjcmV0' }).some((m) => m.startsWith('spec.jwt_signing_method: '))).toBe(true);
    expect(messages({ ...base, use_keyless: false, use_basic_auth: true, base_identity_provided_by: 'oidc_user' })).toEqual([
      'spec.base_identity_provided_by: Invalid value: "oidc_user": must be one of auth_token, jwt_claim, basic_auth_user, hmac_key, oauth_key, or empty',
    ]);
    const fromBody = (extra: Record<string, unknown>) =>
      messages({ ...base, use_keyless: false, use_basic_auth: true, basic_auth: { extract_from_body: true, ...extra } });
    expect(fromBody({ body_user_regexp: 'user=(\\w+)', body_password_regexp: 'pass=(\\w+)' })).toEqual([]);
    expect(fromBody({ body_user_regexp: 'user=[a-z]+', body_password_regexp: '(' })).toEqual([
      'spec.basic_auth.body_user_regexp: Invalid value: "user=[a-z]+": needs a capture group: its first group is the credential',
      'spec.basic_auth.body_password_regexp: Invalid value: "(": is not a valid RE2 regular expression (Go\'s regexp syntax, as Tyk): error parsing regexp: missing closing ): `(`',
    ]);
    expect(fromBody({ body_user_regexp: 'user=((\\w+)+)', body_password_regexp: 'pass=(\\w+)' })).toEqual([]);
    expect(fromBody({ body_user_regexp: 'user=(\\w+)(?=&)', body_password_regexp: 'pass=(\\w+)' })).toEqual([
      'spec.basic_auth.body_user_regexp: Invalid value: "user=(\\\\w+)(?=&)": is not a valid RE2 regular expression (lookaround is not supported: RE2 matches in linear time, as Tyk\'s Go regexp): error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    ]);
    expect(fromBody({})).toEqual([
      'spec.basic_auth.body_user_regexp: Required value: a regular expression whose first group is the credential',
      'spec.basic_auth.body_password_regexp: Required value: a regular expression whose first group is the credential',
    ]);
  });

  it('refuses the patterns RE2 cannot match in linear time, as the gateway does, naming the field', () => {
    const paths = (extendedPaths: Record<string, unknown>) =>
      messages({ ...base, version_data: { not_versioned: true, versions: { Default: { name: 'Default', extended_paths: extendedPaths } } } });
    expect(paths({ validate_json: [{ path: '/a', method: 'POST', schema: { properties: { name: { type: 'string', pattern: '^(a|a)*$' } } } }] })).toEqual([]);
    expect(paths({ validate_json: [{ path: '/a', method: 'POST', schema: { properties: { name: { type: 'string', pattern: '^(?!admin)' } } } }] })).toEqual([
      expect.stringMatching(
        /^spec\.version_data\.versions\[Default\]\.extended_paths\.validate_json\[0\]\.schema: Invalid value: "\(schema\)": is not a valid JSON Schema: pattern "\^\(\?!admin\)" is not a valid RE2 regular expression \(lookaround is not supported/,
      ),
    ]);
    expect(paths({ url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/(\\w)\\1', rewrite_to: '/b' }] })).toEqual([
      expect.stringMatching(
        /^spec\.version_data\.versions\[Default\]\.extended_paths\.url_rewrites\[0\]\.match_pattern: Invalid value: .*backreferences are not supported/,
      ),
    ]);
  });

  it('accepts request signatures (token signature, HMAC signing) and checks their fields, naming each', () => {
    const signed = (signature: Record<string, unknown>) =>
      messages({ ...base, use_keyless: false, auth_configs: { authToken: { validate_signature: true, signature } } });
    expect(signed({ algorithm: 'MasherySHA256', header: 'X-Signature', secret: 's', error_code: 403 })).toEqual([]);
    expect(signed({ algorithm: 'sha1', header: 'X-Signature', secret: 's' })).toEqual([
      'spec.auth_configs.authToken.signature.algorithm: Invalid value: "sha1": must be one of MasherySHA256, MasheryMD5: sha1',
    ]);
    expect(signed({ algorithm: 'MasheryMD5', header: 'X-Signature' })).toEqual([
      'spec.auth_configs.authToken.signature.secret: Required value: is required when validate_signature is set: the secret signatures are made with',
    ]);
    const hmac = (extra: Record<string, unknown>) => messages({ ...base, use_keyless: false, enable_signature_checking: true, ...extra });
    expect(hmac({ hmac_allowed_algorithms: ['hmac-sha512'], base_identity_provided_by: 'hmac_key' })).toEqual([]);
    expect(hmac({ hmac_allowed_algorithms: ['hmac-sha256', 'hmac-md5'] })).toEqual([
      'spec.hmac_allowed_algorithms[1]: Invalid value: "hmac-md5": must be one of hmac-sha1, hmac-sha256, hmac-sha384, hmac-sha512',
    ]);
  });

  it('checks domain: a host, *.x (one or more labels) or {?:[^.]+}.x (exactly one); no other wildcard', () => {
    for (const domain of ['api.example.com', '*.example.com', '{?:[^.]+}.example.com', '{tenant}.example.com'])
      expect(messages({ ...base, domain })).toEqual([]);
    expect(messages({ ...base, domain: 'api.*.example.com' })).toEqual([
      'spec.domain: Invalid value: "api.*.example.com": only a whole first label may be a wildcard: *.example.com (one or more labels) or {?:[^.]+}.example.com (exactly one)',
    ]);
    expect(messages({ ...base, domain: '*' })).toEqual([
      'spec.domain: Invalid value: "*": a wildcard is only supported as the whole first label, followed by a domain',
    ]);
  });

  it('checks upstream_certificates and pinned_public_keys: host patterns naming certificate ids', () => {
    expect(messages({ ...base, upstream_certificates: { '*': 'org1abc' }, pinned_public_keys: { '*.example.com:443': 'a,b' } })).toEqual([]);
    expect(messages({ ...base, upstream_certificates: { 'https://api.example.com': 'org1abc' }, pinned_public_keys: { 'api.example.com': '' } })).toEqual([
      'spec.upstream_certificates[https://api.example.com]: Invalid value: "https://api.example.com": the key must be a host name, * or *.domain, optionally with :port (not a URL)',
      'spec.pinned_public_keys[api.example.com]: Invalid value: "api.example.com": must name a certificate id',
    ]);
  });

  it('requires proxy.target_url as an absolute http(s) URL or the cluster service form', () => {
    const target = (target_url: unknown): string[] => messages({ ...base, proxy: { listen_path: '/a', target_url } });
    expect(target(undefined)).toEqual([
      'spec.proxy.target_url: Required value: the upstream URL: http(s)://host[:port][/path] or <service>.<namespace>.svc:<port>',
    ]);
    expect(target('ftp://files.example')).toEqual(['spec.proxy.target_url: Invalid value: "ftp://files.example": must be an http or https URL']);
    expect(target('http://exa mple')).toHaveLength(1);
    expect(target('https://user:pw@example.com')).toEqual(['spec.proxy.target_url: Invalid value: "(redacted)": must not carry credentials (user:password@)']);
    for (const ok of ['http://127.0.0.1:9', 'https://example.com/base/', 'httpbin.default.svc:8000', 'httpbin.default.svc.cluster.local:80/anything'])
      expect(target(ok)).toEqual([]);
  });

  it("requires proxy.listen_path to be a literal path starting with '/'", () => {
    const listen = (listen_path: unknown): string[] => messages({ ...base, proxy: { listen_path, target_url: 'http://a' } });
    expect(listen('httpbin')).toEqual([`spec.proxy.listen_path: Invalid value: "httpbin": must start with '/'`]);
    expect(listen('/a/{id}')).toEqual(['spec.proxy.listen_path: Invalid value: "/a/{id}": must be a literal path: no {}, ?, #, % or \\']);
    expect(listen('/a/../b')).toHaveLength(1);
    expect(listen(undefined)[0]).toMatch(/^spec\.proxy\.listen_path: Required value: /);
    expect(messages({ name: 'x', use_keyless: true })).toEqual(['spec.proxy: Required value: an ApiDefinition needs proxy.listen_path and proxy.target_url']);
  });

  it('requires global_rate_limit.per when a rate is set (the gateway ignores a rate without a period)', () => {
    expect(messages({ ...base, global_rate_limit: { rate: 10 } })[0]).toMatch(
      /^spec\.global_rate_limit\.per: Required value: the period in seconds is needed when rate is set/,
    );
    expect(messages({ ...base, global_rate_limit: { rate: 10, per: 0 } })[0]).toMatch(/^spec\.global_rate_limit\.per: Invalid value: 0: must be positive/);
    expect(messages({ ...base, global_rate_limit: { rate: 10, per: 1 } })).toEqual([]);
    expect(messages({ ...base, global_rate_limit: { rate: 10, disabled: true } })).toEqual([]);
    expect(messages({ ...base, global_rate_limit: { rate: 0, per: 0 } })).toEqual([]);
    expect(messages({ ...base, global_rate_limit: { rate: -1, per: 1 } })).toEqual(['spec.global_rate_limit.rate: Invalid value: -1: must be at least 0']);
  });

  it('checks versions as the gateway does', () => {
    const versions = (version_data: unknown): string[] => messages({ ...base, version_data });
    expect(versions({ default_version: 'v2', versions: { v1: { name: 'v1' } } })).toEqual([
      'spec.version_data.default_version: Invalid value: "v2": must name a version of spec.version_data.versions: "v1"',
    ]);
    expect(versions({ not_versioned: true, versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } })).toEqual([
      'spec.version_data.default_version: Required value: a not_versioned API with several versions must name the one it serves',
    ]);
    expect(versions({ versions: { v1: { name: 'v1', expires: 'tomorrow', override_target: 'gopher://x' } } })).toEqual([
      'spec.version_data.versions[v1].expires: Invalid value: "tomorrow": must look like 2006-01-02 15:04 (UTC), or be empty for no expiry',
      'spec.version_data.versions[v1].override_target: Invalid value: "gopher://x": must be an http or https URL',
    ]);
    expect(versions({ not_versioned: false, default_version: 'v1', versions: { v1: { name: 'v1' }, 'v2.0': { name: 'v2.0' } } })).toEqual([]);
  });

  it('accepts request body transforms, refusing a blob that is not base64 or a method without a body; endpoints need a path', () => {
    const transform = { path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: 'e30=' } };
    expect(messages({ ...base, extended_paths: { transform: [transform], white_list: [{ path: '' }] } })).toEqual([
      'spec.extended_paths.white_list[0].path: Required value: the endpoint path, relative to the listen path',
    ]);
    const broken = { ...transform, method: 'GET', template_data: { ...transform.template_data, template_source: 'not base64!' } };
    expect(messages({ ...base, extended_paths: { transform: [broken] } })).toEqual([
      'spec.extended_paths.transform[0].method: Invalid value: "GET": must be PUT, POST or PATCH: only a request with a body is transformed',
      'spec.extended_paths.transform[0].template_data.template_source: Invalid value: "not base64!": must be a base64-encoded template (template_mode: blob)',
    ]);
    expect(messages({ ...base, extended_paths: { transform: [{ ...broken, disabled: true }] } })).toEqual([]);
    // A file path is not base64, and need not be.
    expect(
      messages({
        ...base,
        extended_paths: {
          transform: [{ ...transform, template_data: { ...transform.template_data, template_mode: 'file', template_source: '/etc/gw/t.tmpl' } }],
        },
      }),
    ).toEqual([]);
    // A version with its own extended_paths, or none at all, does not apply the API's.
    expect(
      messages({ ...base, extended_paths: { transform: [broken] }, version_data: { versions: { v1: { name: 'v1', use_extended_paths: false } } } }),
    ).toEqual([]);
  });

  it('accepts certificates from Secrets and SecurityPolicies as JWT defaults, and refuses references that cannot name one', () => {
    const refs = {
      certificate_secret_names: ['site-tls'],
      client_certificate_refs: ['client-a'],
      upstream_certificate_refs: { 'up.example.com': 'up-client' },
      pinned_public_keys_refs: { '*.example.com': 'pin' },
      jwt_default_policies: ['shop/gold', 'explicit-id'],
    };
    expect(messages({ ...base, ...refs })).toEqual([]);
    expect(
      messages({
        ...base,
        certificate_secret_names: [''],
        client_certificate_refs: ['Not_A_Name'],
        upstream_certificate_refs: { 'https://up.example.com': 'ok', 'up.example.com': '' },
        pinned_public_keys_refs: { 'a.example.com': 'x/y' },
        jwt_default_policies: ['', 'a/b/c', 'Bad_ns/gold'],
      }),
    ).toEqual([
      "spec.certificate_secret_names[0]: Required value: a Secret reference needs the Secret's name",
      'spec.client_certificate_refs[0]: Invalid value: "Not_A_Name": must name a kubernetes.io/tls Secret in the same namespace: lower case letters, digits, - and . (at most 253)',
      'spec.upstream_certificate_refs[https://up.example.com]: Invalid value: "https://up.example.com": the key must be a host name, * or *.domain, optionally with :port (not a URL)',
      "spec.upstream_certificate_refs[up.example.com]: Required value: a Secret reference needs the Secret's name",
      'spec.pinned_public_keys_refs[a.example.com]: Invalid value: "x/y": must name a kubernetes.io/tls Secret in the same namespace: lower case letters, digits, - and . (at most 253)',
      'spec.jwt_default_policies[0]: Required value: a policy id, or <namespace>/<name> of a SecurityPolicy',
      'spec.jwt_default_policies[1]: Invalid value: "a/b/c": a SecurityPolicy is named <namespace>/<name> (a namespace and a resource name, one slash); anything without a slash is a policy id',
      'spec.jwt_default_policies[2]: Invalid value: "Bad_ns/gold": a SecurityPolicy is named <namespace>/<name> (a namespace and a resource name, one slash); anything without a slash is a policy id',
    ]);
  });

  it('reports what the CRD schema refuses, with its path, once', () => {
    expect(messages({ proxy: { listen_path: '/a', target_url: 'http://a' }, use_keyless: 'yes', protocol: 'gopher', api_id: 'a b' })).toEqual([
      'spec.name: Required value: must be set (a string)',
      'spec.protocol: Unsupported value: "gopher": supported values: "http", "https", "h2c", "tcp", "tls"',
      'spec.use_keyless: Invalid value: "yes": must be a boolean',
      'spec.api_id: Invalid value: "a b": must be 1-128 characters of A-Z a-z 0-9 . _ ~ -',
    ]);
    expect(messages({ ...base, extended_paths: { white_list: [{ path: '/', method_actions: { get: { action: 'reply' } } }] } })).toEqual([
      'spec.extended_paths.white_list[0].method_actions[get]: Invalid value: "get": is not an allowed key: Invalid string: must match pattern /^[A-Z]+$/',
    ]);
    expect(messages(undefined)).toEqual(['spec: Required value: an ApiDefinition needs a spec']);
  });

  it('warns when the legacy auth settings differ from the ones in use', () => {
    const result = validateApiDefinition({
      ...base,
      use_keyless: false,
      use_standard_auth: true,
      auth: { auth_header_name: 'X-Old' },
      auth_configs: { authToken: { auth_header_name: 'X-New' } },
    });
    expect(result).toEqual({
      errors: [],
      warnings: ['spec.auth: ignored: spec.auth_configs.authToken holds the token settings (spec.auth is their legacy location)'],
    });
  });
});
