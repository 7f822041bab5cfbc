// The ApiDefinition specs gateway-parity.test.ts sends both ways (admission, and the gateway's loader after the
// operator's translation): accepted and refused ones alike, one per rule and per edge of a rule.
import { AUTH_CASES, base } from './parity-cases-auth.ts';

const transform = { path: '/x', method: 'POST', template_data: { input_type: 'json', template_mode: 'blob', template_source: 'e30=' } };

export const CASES: Record<string, Record<string, unknown>> = {
  ...AUTH_CASES,
  'upstream certificates and pins': {
    ...base,
    upstream_certificates: { '*': 'org1abc', 'api.example.com:8443': 'org1def' },
    pinned_public_keys: { '*.example.com': 'org1abc,org1def' },
  },
  'upstream certificates keyed by a URL': { ...base, upstream_certificates: { 'https://api.example.com': 'org1abc' } },
  'pinned public keys with an empty id list': { ...base, pinned_public_keys: { 'api.example.com': ' ' } },
  'keyless ignores token options': { ...base, auth: { use_certificate: true } },
  'cluster service target': { ...base, proxy: { listen_path: '/p', target_url: 'httpbin.default.svc:8000' } },
  'https target with base path': { ...base, proxy: { listen_path: '/p', target_url: 'https://example.com/base/' } },
  'bare host target': { ...base, proxy: { listen_path: '/p', target_url: 'example.com' } },
  'ftp target': { ...base, proxy: { listen_path: '/p', target_url: 'ftp://example.com' } },
  'target with credentials': { ...base, proxy: { listen_path: '/p', target_url: 'http://u:p@example.com' } },
  'unparseable target': { ...base, proxy: { listen_path: '/p', target_url: 'http://exa mple' } },
  'no target': { ...base, proxy: { listen_path: '/p' } },
  'no listen path': { ...base, proxy: { target_url: 'http://a' } },
  'relative listen path': { ...base, proxy: { listen_path: 'p', target_url: 'http://a' } },
  'listen path with a wildcard': { ...base, proxy: { listen_path: '/p/{id}', target_url: 'http://a' } },
  'listen path with dot segments': { ...base, proxy: { listen_path: '/p/../q', target_url: 'http://a' } },
  'root listen path': { ...base, proxy: { listen_path: '/', target_url: 'http://a' } },
  'bad api_id': { ...base, api_id: 'a/b' },
  'good api_id': { ...base, api_id: 'my-api.v1' },
  'versions with a default': { ...base, version_data: { not_versioned: true, default_version: 'v2', versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } } },
  'default version that does not exist': { ...base, version_data: { default_version: 'v3', versions: { v1: { name: 'v1' } } } },
  'default version without versions': { ...base, version_data: { default_version: 'v3' } },
  'several unversioned versions without a default': { ...base, version_data: { not_versioned: true, versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } } },
  'versioned API without a default': { ...base, version_data: { not_versioned: false, versions: { v1: { name: 'v1' }, v2: { name: 'v2' } } } },
  'bad version expiry': { ...base, version_data: { versions: { v1: { name: 'v1', expires: 'soon' } } } },
  'good version expiry': { ...base, version_data: { versions: { v1: { name: 'v1', expires: '2030-01-02 15:04' } } } },
  'bad override target': { ...base, version_data: { versions: { v1: { name: 'v1', override_target: 'gopher://x' } } } },
  transform: { ...base, extended_paths: { transform: [transform] } },
  'disabled transform': { ...base, extended_paths: { transform: [{ ...transform, disabled: true }] } },
  'transform in a version': { ...base, version_data: { versions: { v1: { name: 'v1', extended_paths: { transform: [transform] } } } } },
  'transform the versions do not use': {
    ...base,
    extended_paths: { transform: [transform] },
    version_data: { versions: { v1: { name: 'v1', extended_paths: {} } } },
  },
  'header transforms': {
    ...base,
    extended_paths: {
      transform_headers: [{ path: '/x', method: 'GET', delete_headers: ['X-A'], add_headers: { 'X-B': '$tyk_context.path' } }],
      transform_response_headers: [{ path: '/x', method: 'GET', add_headers: { 'X-C': 'c' } }],
    },
  },
  'header transform with a bad name': { ...base, extended_paths: { transform_headers: [{ path: '/x', method: 'GET', add_headers: { 'X B': 'b' } }] } },
  'response header transform with a bad delete name': {
    ...base,
    extended_paths: { transform_response_headers: [{ path: '/x', method: 'GET', delete_headers: ['a:b'] }] },
  },
  'header transform with a control character': {
    ...base,
    extended_paths: { transform_headers: [{ path: '/x', method: 'GET', add_headers: { 'X-B': 'a\nb' } }] },
  },
  'disabled header transform with a bad name': {
    ...base,
    extended_paths: { transform_headers: [{ path: '/x', method: 'GET', disabled: true, add_headers: { 'X B': 'b' } }] },
  },
  'url rewrite with triggers': {
    ...base,
    extended_paths: {
      url_rewrites: [
        {
          path: '/a',
          method: 'GET',
          match_pattern: '/a/(\\w+)',
          rewrite_to: '/b/$1',
          triggers: [{ on: 'all', options: { header_matches: { 'X-A': { match_rx: 'x' } }, payload_matches: { match_rx: 'y' } }, rewrite_to: '/c' }],
        },
      ],
    },
  },
  'url rewrite with an invalid pattern': {
    ...base,
    extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a/(', rewrite_to: '/b' }] },
  },
  'url rewrite with a nested repetition (linear on RE2)': {
    ...base,
    extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '(a+)+', rewrite_to: '/b' }] },
  },
  'url rewrite with a backreference': { ...base, extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '(a)\\1', rewrite_to: '/b' }] } },
  'validate_json with a lookahead pattern': {
    ...base,
    extended_paths: { validate_json: [{ path: '/a', method: 'POST', schema: { type: 'string', pattern: '^(?!x)' } }] },
  },
  'url rewrite with an invalid trigger pattern': {
    ...base,
    extended_paths: {
      url_rewrites: [
        {
          path: '/a',
          method: 'GET',
          match_pattern: '/a',
          rewrite_to: '/b',
          triggers: [{ on: 'any', options: { query_val_matches: { q: { match_rx: '[' } } }, rewrite_to: '/c' }],
        },
      ],
    },
  },
  'url rewrite with an invalid payload pattern': {
    ...base,
    extended_paths: {
      url_rewrites: [
        {
          path: '/a',
          method: 'GET',
          match_pattern: '/a',
          rewrite_to: '/b',
          triggers: [{ on: 'any', options: { payload_matches: { match_rx: '(?<=x)' } }, rewrite_to: '/c' }],
        },
      ],
    },
  },
  'url rewrite looping to no API': {
    ...base,
    extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: 'tyk:///b' }] },
  },
  'url rewrite looping by resource (rewrite_to_internal)': {
    ...base,
    extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a', rewrite_to_internal: { target: { name: 'other' }, path: '/b' } }] },
  },
  'url rewrite without a target': {
    ...base,
    extended_paths: { url_rewrites: [{ path: '/a', method: 'GET', match_pattern: '/a' }] },
  },
  'target_url looping into another API': { ...base, proxy: { listen_path: '/parity', target_url: 'tyk://other/base' } },
  'target_url looping to no API': { ...base, proxy: { listen_path: '/parity', target_url: 'tyk:///base' } },
  target_internal: { ...base, proxy: { listen_path: '/parity', target_internal: { target: { name: 'other', namespace: 'ns' } } } },
  'url rewrite to another host': {
    ...base,
    extended_paths: {
      url_rewrites: [
        { path: '/a', method: 'GET', match_pattern: '/a', rewrite_to: '/b', triggers: [{ on: 'any', options: {}, rewrite_to: 'https://elsewhere/b' }] },
      ],
    },
  },
  'response transform': {
    ...base,
    response_processors: [{ name: 'response_body_transform' }],
    extended_paths: { transform_response: [{ ...transform, method: 'GET' }] },
  },
  'response transform without the processor': { ...base, extended_paths: { transform_response: [{ ...transform, method: 'GET' }] } },
  'disabled response transform without the processor': { ...base, extended_paths: { transform_response: [{ ...transform, method: 'GET', disabled: true }] } },
  'response transform in a version without the processor': {
    ...base,
    version_data: { versions: { v1: { name: 'v1', extended_paths: { transform_response: [transform] } } } },
  },
  'response transform that is not base64': {
    ...base,
    response_processors: [{ name: 'response_body_transform' }],
    extended_paths: { transform_response: [{ ...transform, template_data: { ...transform.template_data, template_source: 'not base64!' } }] },
  },
  'header injector processor': { ...base, response_processors: [{ name: 'header_injector' }] },
  'unknown response processor': { ...base, response_processors: [{ name: 'header_transform' }] },
  'white list entry without path': { ...base, extended_paths: { white_list: [{ path: '' }] } },
  'global request and response headers': {
    ...base,
    version_data: {
      versions: {
        v1: {
          name: 'v1',
          global_headers: { 'X-Env': 'prod' },
          global_headers_remove: ['cookie'],
          global_response_headers: { 'X-Served-By': 'gw' },
          global_response_headers_remove: ['server'],
        },
      },
    },
  },
  'global header with a bad name': { ...base, version_data: { versions: { v1: { name: 'v1', global_headers: { 'X Env': 'prod' } } } } },
  'global response header removal with a bad name': { ...base, version_data: { versions: { v1: { name: 'v1', global_response_headers_remove: ['a:b'] } } } },
  'global header with a context variable': {
    ...base,
    version_data: { versions: { v1: { name: 'v1', global_headers: { 'X-Id': '$tyk_context.request_id' } } } },
  },
  'legacy endpoint lists': {
    ...base,
    version_data: { versions: { v1: { name: 'v1', paths: { ignored: ['/health'], white_list: ['/pets/{id}'], black_list: ['/admin'] } } } },
  },
  'legacy endpoint list with an empty path': { ...base, version_data: { versions: { v1: { name: 'v1', paths: { black_list: [''] } } } } },
  cors: {
    ...base,
    CORS: { enable: true, allowed_origins: ['https://*.example.com', 'https://app.test'], allowed_headers: ['*'], exposed_headers: ['X-Total'], max_age: 60 },
  },
  'cors with two wildcards in an origin': { ...base, CORS: { enable: true, allowed_origins: ['https://*.*.example.com'] } },
  'cors with a bad header name': { ...base, CORS: { enable: true, allowed_headers: ['X Bad'] } },
  'disabled cors is not checked': { ...base, CORS: { enable: false, allowed_origins: ['https://*.*.example.com'] } },
  'size limits': {
    ...base,
    extended_paths: { size_limits: [{ path: '/upload', method: 'POST', size_limit: 1024 }] },
    version_data: { versions: { v1: { name: 'v1', global_size_limit: 4096 } } },
  },
  validate_json: {
    ...base,
    extended_paths: {
      validate_json: [{ path: '/pets', method: 'POST', schema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', required: ['name'] } }],
    },
  },
  'validate_json with an invalid schema': { ...base, extended_paths: { validate_json: [{ path: '/pets', method: 'POST', schema: { type: 'no-such-type' } }] } },
  'Tyk sample with empty unsupported sections': {
    ...base,
    use_oauth2: false,
    cache_options: { enable_cache: false, cache_timeout: 60 },
    custom_middleware: { pre: [], post: [], driver: '' },
    extended_paths: { circuit_breakers: [], cache: [], track_endpoints: [] },
  },
  oauth2: { ...base, use_oauth2: true },
  'cache enabled': { ...base, cache_options: { enable_cache: true } },
  'JavaScript middleware, inline': { ...base, custom_middleware: { pre: [{ name: 'hook', code: 'var hook = 1;' }], driver: 'otto' } },
  'JavaScript middleware with a syntax error': { ...base, custom_middleware: { post: [{ name: 'hook', code: 'var hook = ;' }], driver: 'otto' } },
  'JavaScript middleware without a name': { ...base, custom_middleware: { pre: [{ code: 'var hook = 1;' }], driver: 'otto' } },
  'Go plugin middleware': { ...base, custom_middleware: { pre: [{ name: 'Hook', path: 'hook.so' }], driver: 'goplugin' } },
  'custom auth check': { ...base, custom_middleware: { auth_check: { name: 'auth' } } },
  'circuit breaker': {
    ...base,
    extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 0.5, samples: 5, return_to_service_after: 10 }] },
  },
  'disabled circuit breaker': { ...base, extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', disabled: true }] } },
  'circuit breaker without half-open state, in a version': {
    ...base,
    version_data: {
      versions: {
        v1: {
          name: 'v1',
          extended_paths: {
            circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 1, samples: 1, return_to_service_after: 0, disable_half_open_state: true }],
          },
        },
      },
    },
  },
  'circuit breaker without samples': {
    ...base,
    extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 0.5, return_to_service_after: 10 }] },
  },
  'load balancing over a target list': {
    ...base,
    proxy: { listen_path: '/parity', enable_load_balancing: true, target_list: ['http://127.0.0.1:9', 'http://127.0.0.1:10'] },
  },
  'load balancing with an empty target list': { ...base, proxy: { ...base.proxy, enable_load_balancing: true, target_list: [] } },
  'load balancing with a target that is no URL': { ...base, proxy: { ...base.proxy, enable_load_balancing: true, target_list: ['ftp://x'] } },
  'load balancing checked against uptime tests': {
    ...base,
    proxy: { ...base.proxy, enable_load_balancing: true, target_list: ['http://127.0.0.1:9'], check_host_against_uptime_tests: true },
  },
  'circuit breaker with a string threshold (Tyk Operator types it so)': {
    ...base,
    extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: '0.5', samples: 5 }] },
  },
  'circuit breaker with a string threshold that is no number': {
    ...base,
    extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 'half', samples: 5 }] },
  },
  'circuit breaker with a zero threshold': { ...base, extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 0, samples: 5 }] } },
  'circuit breaker with a threshold above 1': {
    ...base,
    extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 50, samples: 5 }] },
  },
  'circuit breaker with negative samples': {
    ...base,
    extended_paths: { circuit_breakers: [{ path: '/x', method: 'GET', threshold_percent: 0.5, samples: -1 }] },
  },
  'cached paths': { ...base, extended_paths: { cache: ['/x'] } },
  'cache options with cached paths and advanced entries': {
    ...base,
    cache_options: {
      enable_cache: true,
      cache_timeout: 30,
      cache_all_safe_requests: false,
      cache_response_codes: [200, 301],
      enable_upstream_cache_control: true,
      cache_control_ttl_header: 'X-Ttl',
      cache_by_headers: ['X-Tenant'],
    },
    extended_paths: {
      cache: ['/x'],
      advance_cache_config: [{ path: '/y', method: 'GET', cache_response_codes: [200], cache_key_regex: 'id=\\d+', timeout: 5 }],
    },
  },
  'advanced cache entry for POST': {
    ...base,
    cache_options: { enable_cache: true },
    extended_paths: { advance_cache_config: [{ path: '/y', method: 'POST' }] },
  },
  'cache with a response code out of range': { ...base, cache_options: { enable_cache: true, cache_response_codes: [99] } },
  'cache with a negative timeout': { ...base, cache_options: { enable_cache: true, cache_timeout: -1 } },
  'cached path that is not a string': { ...base, extended_paths: { cache: [{ path: '/x' }] } },
  'tracked endpoints in a version': {
    ...base,
    version_data: { versions: { v1: { name: 'v1', extended_paths: { track_endpoints: [{ path: '/x', method: 'GET' }] } } } },
  },
  'tracked and untracked endpoints': {
    ...base,
    do_not_track: false,
    enable_detailed_recording: true,
    tags: ['team-a'],
    extended_paths: { track_endpoints: [{ path: '/pets/{id}', method: 'GET' }], do_not_track_endpoints: [{ path: '/health', method: 'GET' }] },
  },
  'tracked endpoint without a method': { ...base, extended_paths: { track_endpoints: [{ path: '/x' }] } },
  'untracked endpoint without a path': { ...base, extended_paths: { do_not_track_endpoints: [{ method: 'GET' }] } },
  'virtual endpoint without a source type': { ...base, extended_paths: { virtual: [{ path: '/x', method: 'GET', response_function_name: 'f' }] } },
  'virtual endpoint from a blob': {
    ...base,
    extended_paths: {
      virtual: [
        {
          path: '/x',
          method: 'GET',
          response_function_name: 'f',
          function_source_type: 'blob',
          function_source_uri: Buffer.from('function f() {}').toString('base64'),
        },
      ],
    },
  },
  'virtual endpoint with a blob that is not base64, in a version': {
    ...base,
    version_data: {
      versions: {
        v1: { name: 'v1', extended_paths: { virtual: [{ path: '/x', response_function_name: 'f', function_source_type: 'blob', function_source_uri: '%%' }] } },
      },
    },
  },
  'graphql proxy-only': { ...base, graphql: { enabled: true, execution_mode: 'proxyOnly', version: '2', schema: 'type Query { hello: String }' } },
  'graphql subgraph mode': { ...base, graphql: { enabled: true, execution_mode: 'subgraph', schema: 'type Query { hello: String }' } },
  'graphql with an invalid SDL': { ...base, graphql: { enabled: true, execution_mode: 'proxyOnly', schema: 'type Query {\n  hello: Strin\n}' } },
  'graphql with an SDL syntax error': { ...base, graphql: { enabled: true, schema: 'type Query { hello String }' } },
  'graphql without a schema': { ...base, graphql: { enabled: true, execution_mode: 'proxyOnly' } },
  'graphql supergraph mode without subgraphs': { ...base, graphql: { enabled: true, execution_mode: 'supergraph', schema: 'type Query { hello: String }' } },
  'graphql supergraph mode': {
    ...base,
    graphql: {
      enabled: true,
      execution_mode: 'supergraph',
      supergraph: {
        subgraphs: [
          { name: 'a', url: 'http://a.example', sdl: 'type Query { a: Int }' },
          { name: 'b', url: 'http://b.example', sdl: 'type Query { b: Int }' },
        ],
      },
    },
  },
  'graphql supergraph whose subgraphs conflict': {
    ...base,
    graphql: {
      enabled: true,
      execution_mode: 'supergraph',
      supergraph: {
        subgraphs: [
          { name: 'a', url: 'http://a.example', sdl: 'type Query { a: Int }' },
          { name: 'b', url: 'http://b.example', sdl: 'type Query { a: String }' },
        ],
      },
    },
  },
  'graphql supergraph subgraph without a url': {
    ...base,
    graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs: [{ name: 'a', sdl: 'type Query { a: Int }' }] } },
  },
  'graphql execution engine': { ...base, graphql: { enabled: true, execution_mode: 'executionEngine', schema: 'type Query { hello: String }' } },
  'disabled graphql with an invalid SDL': { ...base, graphql: { enabled: false, schema: 'type Query {' } },
  'certificates from Secrets': {
    ...base,
    certificate_secret_names: ['tls'],
    client_certificate_refs: ['client'],
    upstream_certificate_refs: { 'up.example.com': 'up' },
    pinned_public_keys_refs: { '*.example.com': 'pin' },
  },
  'upstream certificate Secret keyed by a URL': { ...base, upstream_certificate_refs: { 'https://up.example.com': 'up' } },
};
