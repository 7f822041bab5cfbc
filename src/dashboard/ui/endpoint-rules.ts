// The endpoint designer's rules and the Classic definition they live in: the default version's
// `extended_paths` lists read out as one row per rule (a path, a method and the kind's own inputs, as typed) and
// written back, list by list, in the rows' order; every field of an entry the form does not show, and every list it
// does not manage (virtual, track_endpoints, transform_response, ...), is kept as it was. Pure functions. An input
// that does not parse (a number, a JSON schema, a `Name: value` line) is sent as typed, so the dashboard's refusal
// names its field; refusedField() maps such a field back to the row and input that wrote it.
import { fromBase64, headerLines, headersOr, nameList, numberOr, objectAt, text, toBase64, type Json } from './rule-text.ts';

export const RULE_KINDS = [
  'block',
  'allow',
  'ignore',
  'mock',
  'rewrite',
  'headers',
  'responseHeaders',
  'size',
  'timeout',
  'breaker',
  'cache',
  'validate',
  'transform',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export interface RuleInput {
  name: string;
  label: string;
  hint?: string;
  multiline?: boolean;
  /** The entry's field this input writes (a refusal naming it, or a field inside it, is shown at the input). */
  field: string;
}

export interface EndpointRule {
  kind: RuleKind;
  path: string;
  /** '' for every method (allow, block and ignore rules only) and for a cache rule (Tyk's `cache` list names paths
   * only: their GET, HEAD and OPTIONS answers are cached). */
  method: string;
  /** The kind's inputs as typed, by RuleInput.name. */
  values: Record<string, string>;
  /** The entry as read: the fields the form does not show are written back. */
  original?: Json | undefined;
  /** The list a mock was read from (white_list, black_list or ignored); a new mock goes to `ignored`. */
  origin?: string | undefined;
}

interface KindSpec {
  label: string;
  list: string;
  inputs: RuleInput[];
}

const METHOD_LISTS = ['white_list', 'black_list', 'ignored'];

/** Kinds whose rule may hold for every method (an entry without a method). */
export const ANY_METHOD_KINDS: readonly RuleKind[] = ['allow', 'block', 'ignore'];

/** A request or response header transform's inputs. */
const HEADER_INPUTS: RuleInput[] = [
  { name: 'add_headers', label: 'Headers to set', hint: 'One `Name: value` per line', multiline: true, field: 'add_headers' },
  { name: 'delete_headers', label: 'Headers to remove', hint: 'Names separated by commas', field: 'delete_headers' },
];

export const KINDS: Record<RuleKind, KindSpec> = {
  block: { label: 'Block (403)', list: 'black_list', inputs: [] },
  allow: { label: 'Allow (only allowed endpoints pass)', list: 'white_list', inputs: [] },
  ignore: { label: 'Ignore authentication', list: 'ignored', inputs: [] },
  mock: {
    label: 'Mock response',
    list: 'ignored',
    inputs: [
      { name: 'code', label: 'Status code', field: 'method_actions' },
      { name: 'body', label: 'Body', multiline: true, field: 'method_actions' },
      { name: 'headers', label: 'Headers', hint: 'One `Name: value` per line', multiline: true, field: 'method_actions' },
    ],
  },
  rewrite: {
    label: 'URL rewrite',
    list: 'url_rewrites',
    inputs: [
      { name: 'match_pattern', label: 'Match pattern', hint: 'RE2 regular expression on the path and query', field: 'match_pattern' },
      { name: 'rewrite_to', label: 'Rewrite to', hint: '$1.. are the pattern’s groups', field: 'rewrite_to' },
    ],
  },
  headers: {
    label: 'Request headers',
    list: 'transform_headers',
    inputs: HEADER_INPUTS,
  },
  responseHeaders: {
    label: 'Response headers',
    list: 'transform_response_headers',
    inputs: HEADER_INPUTS,
  },
  size: { label: 'Request size limit', list: 'size_limits', inputs: [{ name: 'size_limit', label: 'Largest body (bytes)', field: 'size_limit' }] },
  timeout: { label: 'Timeout', list: 'hard_timeouts', inputs: [{ name: 'timeout', label: 'Timeout (seconds)', field: 'timeout' }] },
  breaker: {
    label: 'Circuit breaker',
    list: 'circuit_breakers',
    inputs: [
      { name: 'threshold_percent', label: 'Error ratio (0 to 1)', field: 'threshold_percent' },
      { name: 'samples', label: 'Samples', field: 'samples' },
      { name: 'return_to_service_after', label: 'Open for (seconds)', field: 'return_to_service_after' },
    ],
  },
  cache: { label: 'Cache (GET, HEAD, OPTIONS)', list: 'cache', inputs: [] },
  validate: {
    label: 'Validate JSON body',
    list: 'validate_json',
    inputs: [
      { name: 'schema', label: 'JSON schema', multiline: true, field: 'schema' },
      { name: 'error_response_code', label: 'Status when invalid', hint: 'Default 422', field: 'error_response_code' },
    ],
  },
  transform: {
    label: 'Request body transform',
    list: 'transform',
    inputs: [
      { name: 'input_type', label: 'Body format', hint: 'json or xml', field: 'template_data' },
      { name: 'template', label: 'Template', hint: 'A Go template; the body’s fields as .name', multiline: true, field: 'template_data' },
    ],
  },
};

/** The extended_paths lists the designer reads and writes, in the order they are read. */
export const MANAGED_LISTS = [...new Set(RULE_KINDS.map((kind) => KINDS[kind].list).concat(METHOD_LISTS))];

export function defaultVersionName(definition: Json): string {
  const versionData = objectAt(definition.version_data);
  const names = Object.keys(objectAt(versionData.versions));
  return typeof versionData.default_version === 'string' && versionData.default_version !== '' ? versionData.default_version : (names[0] ?? 'Default');
}

export function newRule(kind: RuleKind): EndpointRule {
  const values: Record<string, string> = Object.fromEntries(KINDS[kind].inputs.map((input) => [input.name, '']));
  if (kind === 'mock') values.code = '200';
  if (kind === 'timeout') values.timeout = '30';
  if (kind === 'transform') values.input_type = 'json';
  return { kind, path: '/', method: kind === 'cache' ? '' : 'GET', values };
}

/** A row changed to another kind: path and method kept, the new kind's inputs empty. */
export function withKind(rule: EndpointRule, kind: RuleKind): EndpointRule {
  const fresh = newRule(kind);
  const method = kind === 'cache' ? '' : rule.method === '' && !ANY_METHOD_KINDS.includes(kind) ? 'GET' : rule.method;
  return { ...fresh, path: rule.path, method };
}

function readMethodEntry(list: string, entry: Json): EndpointRule {
  const actions = objectAt(entry.method_actions);
  const method = text(entry.method) || Object.keys(actions)[0] || '';
  const action = objectAt(actions[method]);
  const path = text(entry.path);
  if (action.action === 'reply') {
    return {
      kind: 'mock',
      path,
      method,
      values: { code: text(action.code) || '200', body: text(action.data), headers: headerLines(action.headers) },
      original: entry,
      origin: list,
    };
  }
  const kind: RuleKind = list === 'white_list' ? 'allow' : list === 'black_list' ? 'block' : 'ignore';
  return { kind, path, method, values: {}, original: entry };
}

function readTransform(entry: Json): EndpointRule {
  const data = objectAt(entry.template_data);
  const source = text(data.template_source);
  const template = data.template_mode === 'blob' ? fromBase64(source) : source;
  return {
    kind: 'transform',
    path: text(entry.path),
    method: text(entry.method),
    values: { input_type: text(data.input_type) || 'json', template },
    original: entry,
  };
}

function readEntry(kind: RuleKind, entry: Json): EndpointRule {
  if (kind === 'transform') return readTransform(entry);
  const values: Record<string, string> = {};
  for (const input of KINDS[kind].inputs) {
    const value = entry[input.field];
    if (input.name === 'add_headers') values[input.name] = headerLines(value);
    else if (input.name === 'delete_headers') values[input.name] = Array.isArray(value) ? value.map(text).join(', ') : '';
    else if (input.name === 'schema') values[input.name] = value === undefined ? '' : JSON.stringify(value, null, 2);
    else values[input.name] = text(value);
  }
  return { kind, path: text(entry.path), method: text(entry.method), values, original: entry };
}

/** The default version's rules, list by list. */
export function rulesOf(definition: Json): EndpointRule[] {
  const version = objectAt(objectAt(objectAt(definition.version_data).versions)[defaultVersionName(definition)]);
  const extended = objectAt(version.extended_paths);
  const rules: EndpointRule[] = [];
  for (const list of MANAGED_LISTS) {
    const entries: unknown[] = Array.isArray(extended[list]) ? (extended[list] as unknown[]) : [];
    for (const entry of entries) {
      if (METHOD_LISTS.includes(list)) rules.push(readMethodEntry(list, objectAt(entry)));
      else if (list === 'cache') rules.push({ kind: 'cache', path: text(entry), method: '', values: {} });
      else
        rules.push(
          readEntry(
            RULE_KINDS.find((k) => KINDS[k].list === list)!,
            objectAt(entry),
          ),
        );
    }
  }
  return rules;
}

/** The extended_paths list a rule is written to. */
export const listOf = (rule: EndpointRule): string => (rule.kind === 'mock' && rule.origin ? rule.origin : KINDS[rule.kind].list);

function methodActions(rule: EndpointRule, action: Json): Json {
  const kept = { ...objectAt(rule.original?.method_actions) };
  const readMethod = text(rule.original?.method) || Object.keys(kept)[0];
  if (readMethod) delete kept[readMethod];
  return { ...kept, [rule.method]: action };
}

function entryOf(rule: EndpointRule): unknown {
  const v = rule.values;
  const base: Json = { ...rule.original, path: rule.path, method: rule.method };
  switch (rule.kind) {
    case 'cache':
      return rule.path;
    case 'allow':
    case 'block':
    case 'ignore': {
      if (rule.method !== '') return { ...base, method_actions: methodActions(rule, { action: 'no_action' }) };
      const { method: _method, ...anyMethod } = base;
      return anyMethod;
    }
    case 'mock': {
      const headers = headersOr(v.headers ?? '');
      return { ...base, method_actions: methodActions(rule, { action: 'reply', code: numberOr(v.code ?? '200'), data: v.body ?? '', headers }) };
    }
    case 'headers':
    case 'responseHeaders': {
      return { ...base, add_headers: headersOr(v.add_headers ?? ''), delete_headers: nameList(v.delete_headers ?? '') };
    }
    case 'validate': {
      let schema: unknown = v.schema ?? '';
      try {
        schema = JSON.parse(v.schema ?? '');
      } catch {
        // Sent as typed: the dashboard refuses it at `schema`.
      }
      const entry: Json = { ...base, schema };
      if ((v.error_response_code ?? '').trim() === '') delete entry.error_response_code;
      else entry.error_response_code = numberOr(v.error_response_code!);
      return entry;
    }
    case 'transform': {
      const data = objectAt(rule.original?.template_data);
      // A template read from a file stays a file path unless typed anew; a typed one is sent as a blob.
      const file = data.template_mode === 'file' && text(data.template_source) === v.template;
      return {
        ...base,
        template_data: {
          ...data,
          input_type: v.input_type ?? 'json',
          template_mode: file ? 'file' : 'blob',
          template_source: file ? v.template : toBase64(v.template ?? ''),
        },
      };
    }
    case 'rewrite':
      return { ...base, match_pattern: v.match_pattern ?? '', rewrite_to: v.rewrite_to ?? '' };
    default: {
      const entry: Json = { ...base };
      for (const input of KINDS[rule.kind].inputs) {
        const typed = v[input.name] ?? '';
        if (typed.trim() === '') delete entry[input.field];
        else entry[input.field] = numberOr(typed);
      }
      return entry;
    }
  }
}

/** The definition with the default version's managed lists replaced by these rules (other lists and versions kept;
 * extended paths switched on so they apply). */
export function withRules(definition: Json, rules: EndpointRule[]): Json {
  const versionData = objectAt(definition.version_data);
  const versions = objectAt(versionData.versions);
  const name = defaultVersionName(definition);
  const version = objectAt(versions[name]);
  const extended: Json = { ...objectAt(version.extended_paths) };
  for (const list of MANAGED_LISTS) delete extended[list];
  for (const rule of rules) {
    const list = listOf(rule);
    extended[list] = [...((extended[list] as unknown[] | undefined) ?? []), entryOf(rule)];
  }
  const nextVersion = {
    ...version,
    name: typeof version.name === 'string' ? version.name : name,
    use_extended_paths: rules.length > 0 || version.use_extended_paths === true,
    extended_paths: extended,
  };
  return { ...definition, version_data: { ...versionData, versions: { ...versions, [name]: nextVersion } } };
}

/** Where the dashboard names a rule's entry: `version_data.versions.<v>.extended_paths.<list>[<i>]`. */
export function fieldOfRule(definition: Json, rules: EndpointRule[], index: number): string {
  const list = listOf(rules[index]!);
  const position = rules.slice(0, index).filter((r) => listOf(r) === list).length;
  return `version_data.versions.${defaultVersionName(definition)}.extended_paths.${list}[${position}]`;
}

/** Which of a rule's inputs a refused field belongs to: 'path', 'method', an input's name, or 'rule' (the entry as a
 * whole); undefined when the field is not this rule's. */
export function refusedInput(rule: EndpointRule, ruleField: string, refused: string): string | undefined {
  if (refused !== ruleField && !refused.startsWith(`${ruleField}.`) && !refused.startsWith(`${ruleField}[`)) return undefined;
  const rest = refused.slice(ruleField.length).replace(/^\./, '');
  const head = rest.split(/[.[]/)[0] ?? '';
  if (head === 'path' || head === 'method') return head;
  if (rule.kind === 'mock' && head === 'method_actions') {
    const leaf = rest.split('.').pop();
    return leaf === 'data' ? 'body' : leaf === 'headers' ? 'headers' : 'code';
  }
  return KINDS[rule.kind].inputs.find((input) => input.field === head)?.name ?? 'rule';
}

/** What the designer's form needs of a definition format: Classic here, OAS in oas-endpoint-rules.ts. */
export interface RulesModel {
  legend: string;
  /** Under the rules: what the designer leaves to the JSON or YAML view. */
  note: string;
  kinds: readonly RuleKind[];
  inputs: (kind: RuleKind) => RuleInput[];
  /** The rule may hold for every method ('' offered as "Any method"). */
  anyMethod: (kind: RuleKind) => boolean;
  /** false: the rule names a path only (Classic cache). */
  hasMethod: (kind: RuleKind) => boolean;
  newRule: (kind: RuleKind) => EndpointRule;
  withKind: (rule: EndpointRule, kind: RuleKind) => EndpointRule;
  rulesOf: (definition: Json) => EndpointRule[];
  withRules: (definition: Json, rules: EndpointRule[]) => Json;
  fieldOfRule: (definition: Json, rules: EndpointRule[], index: number) => string;
  refusedInput: (rule: EndpointRule, ruleField: string, refused: string) => string | undefined;
}

export const CLASSIC_RULES: RulesModel = {
  legend: 'Endpoint designer (default version)',
  note: 'Virtual endpoints, tracking, response transforms and the other endpoint settings: use the JSON or YAML view.',
  kinds: RULE_KINDS,
  inputs: (kind) => KINDS[kind].inputs,
  anyMethod: (kind) => ANY_METHOD_KINDS.includes(kind),
  hasMethod: (kind) => kind !== 'cache',
  newRule,
  withKind,
  rulesOf,
  withRules,
  fieldOfRule,
  refusedInput,
};
