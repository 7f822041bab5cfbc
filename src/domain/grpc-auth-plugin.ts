// A Classic definition's gRPC authentication plugin as written: whether custom_middleware.auth_check authenticates
// the API (grpcAuthEnabled, Tyk Gateway's rule) and its session cache, custom_middleware.id_extractor (Tyk's ID
// extractor: docs/compatibility.md §gRPC plugins), read and checked the same way by the gateway
// (gateway/plugins/grpc/grpc-spec.ts), the admission webhook and the dashboard's writes (js-plugins.ts
// pluginProblem). A Tyk OAS definition's server.authentication.custom.config.idExtractor arrives here in this form
// (oas-plugins.ts).
//
// id_extractor {disabled, extract_from: header|form|body, extract_with: value|regex|xpath, extractor_config:
// {header_name, param_name, regex_expression, regex_match_index, xpath_expression}} is in use when not disabled and
// extract_from or extract_with is set (Tyk's definitions carry an empty one). Each problem is refused naming its
// field (PluginFieldError), where Tyk disables the extractor, or answers 400 to every request, without a word:
// - an extractor without a gRPC authentication plugin (Tyk runs it only before the CustomKeyCheck hook);
// - an unknown source or method; a header source without header_name, a form source without param_name;
// - extract_with value from the body: Tyk extracts nothing there, so every request would share one cached session;
// - a regex_expression that is empty, not RE2 (bounded-regexp.ts) or a regex_match_index that is no whole number;
// - an xpath_expression outside the subset this gateway evaluates (xml-path.ts).
import { compileBoundedRegexp, type LinearRegexp } from './bounded-regexp.ts';
import { PluginFieldError } from './js-plugins.ts';
import { compileXmlPath, type XmlPath } from './xml-path.ts';

type Loose = Record<string, unknown>;

export const GRPC_DRIVER = 'grpc';

export const ID_EXTRACTOR_FIELD = 'custom_middleware.id_extractor';

export interface IdExtractorSpec {
  /** Where the identity is read: a request header, a form field (query and url-encoded body), or the whole body. */
  from: 'header' | 'form' | 'body';
  /** header_name (header) or param_name (form); '' for the body. */
  name: string;
  extract: { with: 'value' } | { with: 'regex'; regexp: LinearRegexp; matchIndex: number } | { with: 'xpath'; path: XmlPath };
}

/** Tyk runs a plugin's auth_check when enable_coprocess_auth (or custom_plugin_auth_enabled) is set, and not keyless. */
export function grpcAuthEnabled(def: Loose): boolean {
  const section = isObject(def.custom_middleware) ? def.custom_middleware : {};
  const auth = section.auth_check;
  return (
    section.driver === GRPC_DRIVER &&
    def.use_keyless !== true &&
    (def.enable_coprocess_auth === true || def.custom_plugin_auth_enabled === true) &&
    isObject(auth) &&
    auth.disabled !== true &&
    typeof auth.name === 'string' &&
    auth.name !== ''
  );
}

/** The definition's id_extractor; undefined when not in use. Throws PluginFieldError naming the field. */
export function readIdExtractor(def: Loose): IdExtractorSpec | undefined {
  const section = isObject(def.custom_middleware) ? def.custom_middleware : {};
  const extractor = section.id_extractor;
  if (!isObject(extractor) || extractor.disabled === true || (!given(extractor.extract_from) && !given(extractor.extract_with))) return undefined;
  const fail = (field: string, problem: string): never => {
    throw new PluginFieldError(`${ID_EXTRACTOR_FIELD}${field === '' ? '' : `.${field}`}`, problem);
  };
  if (!grpcAuthEnabled(def))
    fail(
      '',
      'the ID extractor caches the sessions of a gRPC authentication plugin: it needs the grpc driver and an authentication hook (Classic: custom_middleware.auth_check with enable_coprocess_auth)',
    );
  const from = extractor.extract_from;
  if (from !== 'header' && from !== 'form' && from !== 'body') return fail('extract_from', 'must be header, form or body');
  const method = extractor.extract_with;
  if (method !== 'value' && method !== 'regex' && method !== 'xpath') return fail('extract_with', 'must be value, regex or xpath');
  const config = isObject(extractor.extractor_config) ? extractor.extractor_config : {};
  const nameField = from === 'header' ? 'header_name' : 'param_name';
  const name = from === 'body' ? '' : config[nameField];
  if (typeof name !== 'string' || (from !== 'body' && name === ''))
    return fail(`extractor_config.${nameField}`, `is required to extract from the ${from === 'header' ? 'header' : 'form field'} it names`);
  if (method === 'value') {
    if (from === 'body')
      fail(
        'extract_with',
        'value reads a header or a form field; from the body use regex or xpath (Tyk extracts nothing there, so every request would share one session)',
      );
    return { from, name, extract: { with: 'value' } };
  }
  if (method === 'regex') {
    const source = config.regex_expression;
    if (typeof source !== 'string' || source === '') return fail('extractor_config.regex_expression', 'is required with extract_with regex');
    const compiled = compileBoundedRegexp(source);
    if (!compiled.ok) return fail('extractor_config.regex_expression', compiled.problem);
    const matchIndex = config.regex_match_index ?? 0;
    if (typeof matchIndex !== 'number' || !Number.isSafeInteger(matchIndex) || matchIndex < 0)
      return fail('extractor_config.regex_match_index', 'must be a whole number from 0 (which match of the expression is the identity)');
    return { from, name, extract: { with: 'regex', regexp: compiled.regexp, matchIndex } };
  }
  const expression = config.xpath_expression;
  if (typeof expression !== 'string' || expression === '') return fail('extractor_config.xpath_expression', 'is required with extract_with xpath');
  const path = compileXmlPath(expression);
  if (!path.ok) return fail('extractor_config.xpath_expression', path.problem);
  return { from, name, extract: { with: 'xpath', path: path.path } };
}

function given(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
