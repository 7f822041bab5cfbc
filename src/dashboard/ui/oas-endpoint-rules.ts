// The endpoint designer's rules in an OAS document: Tyk's per-operation middleware,
// `x-gw-api-gateway.middleware.operations.<operationId>.<allow|block|ignoreAuthentication|mockResponse|...>`, read
// out as one row per enabled entry (the operation's path and method from `paths`) and written back in place: an
// operation configured at gw's own location (`operations.<operationId>`, which the gateway prefers) stays there. A
// row whose path and method name no operation adds one to `paths`, and an operation without an operationId gets
// Tyk's (the path without its leading slash, then the method: `adminGET`). Disabled entries, the keys the designer
// does not manage and every other part of the document are kept. Pure functions.
import { KINDS, newRule as classicNewRule, type EndpointRule, type RuleInput, type RuleKind, type RulesModel } from './endpoint-rules.ts';
import { fromBase64, headerLines, headersOr, nameList, numberOr, objectAt, text, toBase64, type Json } from './rule-text.ts';

export const OAS_EXTENSION = 'x-gw-api-gateway';

/** Each kind's operation key (Tyk OAS names) and its inputs' fields inside it, by the Classic input's name. */
const OPERATION_KEYS: Record<RuleKind, { key: string; fields: Record<string, string> }> = {
  block: { key: 'block', fields: {} },
  allow: { key: 'allow', fields: {} },
  ignore: { key: 'ignoreAuthentication', fields: {} },
  mock: { key: 'mockResponse', fields: { code: 'code', body: 'body', headers: 'headers' } },
  rewrite: { key: 'urlRewrite', fields: { match_pattern: 'pattern', rewrite_to: 'rewriteTo' } },
  headers: { key: 'transformRequestHeaders', fields: { add_headers: 'add', delete_headers: 'remove' } },
  responseHeaders: { key: 'transformResponseHeaders', fields: { add_headers: 'add', delete_headers: 'remove' } },
  size: { key: 'requestSizeLimit', fields: { size_limit: 'value' } },
  timeout: { key: 'enforceTimeout', fields: { timeout: 'value' } },
  breaker: { key: 'circuitBreaker', fields: { threshold_percent: 'threshold', samples: 'sampleSize', return_to_service_after: 'coolDownPeriod' } },
  cache: { key: 'cache', fields: {} },
  validate: { key: 'validateRequest', fields: { error_response_code: 'errorResponseCode' } },
  transform: { key: 'transformRequestBody', fields: { input_type: 'format', template: 'body' } },
};

const OAS_KINDS = Object.keys(OPERATION_KEYS) as RuleKind[];
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The Classic kind's inputs (labels shared) writing the OAS fields; an input with no OAS field is not offered. */
function oasInputs(kind: RuleKind): RuleInput[] {
  const fields = OPERATION_KEYS[kind].fields;
  return KINDS[kind].inputs
    .filter((input) => fields[input.name] !== undefined)
    .map((input) =>
      kind === 'validate'
        ? { ...input, field: fields[input.name]!, hint: 'Default 422; the body is checked against the operation’s application/json schema' }
        : { ...input, field: fields[input.name]! },
    );
}

function newOasRule(kind: RuleKind): EndpointRule {
  const rule = classicNewRule(kind);
  const values = Object.fromEntries(oasInputs(kind).map((input) => [input.name, rule.values[input.name] ?? '']));
  return { ...rule, method: 'GET', values };
}

/** Operations by operationId: `operations` (gw's location) wins over `middleware.operations` (Tyk's), as in the gateway. */
interface Located {
  tyk: Record<string, Json>;
  gw: Record<string, Json>;
}

function locate(document: Json): Located {
  const ext = objectAt(document[OAS_EXTENSION]);
  const ops = (value: unknown): Record<string, Json> => Object.fromEntries(Object.entries(objectAt(value)).map(([id, op]) => [id, objectAt(op)]));
  return { tyk: ops(objectAt(ext.middleware).operations), gw: ops(ext.operations) };
}

/** operationId -> path and method (upper case) of every operation in `paths` that has one. */
function operationsOf(document: Json): Map<string, { path: string; method: string }> {
  const found = new Map<string, { path: string; method: string }>();
  for (const [path, item] of Object.entries(objectAt(document.paths))) {
    for (const method of HTTP_METHODS) {
      const id = objectAt(objectAt(item)[method]).operationId;
      if (typeof id === 'string' && id !== '') found.set(id, { path, method: method.toUpperCase() });
    }
  }
  return found;
}

function readRule(kind: RuleKind, entry: Json, target: { path: string; method: string }): EndpointRule {
  const values: Record<string, string> = {};
  for (const input of oasInputs(kind)) {
    const value = entry[input.field];
    if (input.name === 'headers' || input.name === 'add_headers') values[input.name] = headerLines(value);
    else if (input.name === 'delete_headers') values[input.name] = Array.isArray(value) ? value.map(text).join(', ') : '';
    else if (input.name === 'template') values[input.name] = fromBase64(text(value));
    else values[input.name] = text(value);
  }
  if (kind === 'mock') values.code ||= '200';
  if (kind === 'transform') values.input_type ||= 'json';
  return { kind, path: target.path, method: target.method, values, original: entry };
}

/** Every enabled entry of the kinds the designer manages, operation by operation. */
export function oasRulesOf(document: Json): EndpointRule[] {
  const { tyk, gw } = locate(document);
  const known = operationsOf(document);
  const rules: EndpointRule[] = [];
  for (const [id, operation] of Object.entries({ ...tyk, ...gw })) {
    const target = known.get(id);
    if (!target) continue;
    for (const kind of OAS_KINDS) {
      const entry = objectAt(operation[OPERATION_KEYS[kind].key]);
      if (entry.enabled === true) rules.push(readRule(kind, entry, target));
    }
  }
  return rules;
}

/** {name, value} pairs from `Name: value` lines, or the text as typed when a line has no colon. */
function headerList(typed: string): { name: string; value: string }[] | string {
  const headers = headersOr(typed);
  return typeof headers === 'string' ? headers : Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function entryOf(rule: EndpointRule): Json {
  const entry: Json = { ...rule.original, enabled: true };
  for (const input of oasInputs(rule.kind)) {
    const typed = rule.values[input.name] ?? '';
    if (input.name === 'headers' || input.name === 'add_headers') entry[input.field] = headerList(typed);
    else if (input.name === 'delete_headers') entry[input.field] = nameList(typed);
    else if (input.name === 'body' || input.name === 'match_pattern' || input.name === 'rewrite_to' || input.name === 'input_type') entry[input.field] = typed;
    else if (input.name === 'template') entry[input.field] = toBase64(typed);
    // Optional numbers are left out when empty; a required one (a timeout, a size) is sent as typed and refused.
    else if (typed.trim() === '' && !['timeout', 'size_limit'].includes(input.name)) delete entry[input.field];
    else entry[input.field] = numberOr(typed);
  }
  return entry;
}

const normalPath = (path: string): string => (path.startsWith('/') ? path : `/${path}`);

/** Tyk's generated operationId (`/admin` GET -> `adminGET`), numbered when another operation already has it. */
function generatedId(path: string, method: string, taken: Set<string>): string {
  const base = `${normalPath(path).slice(1)}${method.toUpperCase()}`;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}${n}`;
  return id;
}

/** The operationId of a rule's path and method in `paths`, the operation (or its id) added when missing. */
function operationIdIn(paths: Json, rule: EndpointRule): string {
  const path = normalPath(rule.path);
  const method = rule.method.toLowerCase();
  const item = objectAt(paths[path]);
  const operation = objectAt(item[method]);
  if (typeof operation.operationId === 'string' && operation.operationId !== '') return operation.operationId;
  const taken = new Set<string>();
  for (const other of Object.values(paths)) for (const m of HTTP_METHODS) taken.add(text(objectAt(objectAt(other)[m]).operationId));
  const id = generatedId(path, method, taken);
  paths[path] = { ...item, [method]: item[method] === undefined ? { operationId: id, responses: {} } : { ...operation, operationId: id } };
  return id;
}

/** The document with the managed entries replaced by these rules (in place: gw's location when the operation is there). */
export function withOasRules(document: Json, rules: EndpointRule[]): Json {
  const { tyk, gw } = locate(document);
  const known = operationsOf(document);
  const managed = new Set(OAS_KINDS.map((kind) => OPERATION_KEYS[kind].key));
  const atGw = new Set(Object.keys(gw));
  for (const id of known.keys()) {
    const operations = atGw.has(id) ? gw : tyk[id] ? tyk : undefined;
    if (!operations) continue;
    const kept = Object.fromEntries(Object.entries(operations[id]!).filter(([key, entry]) => !(managed.has(key) && objectAt(entry).enabled === true)));
    if (Object.keys(kept).length === Object.keys(operations[id]!).length) continue;
    // An emptied operation at gw's location stays while Tyk's location has one: it would be served instead.
    if (Object.keys(kept).length === 0 && !(operations === gw && tyk[id])) delete operations[id];
    else operations[id] = kept;
  }
  const paths: Json = { ...objectAt(document.paths) };
  for (const rule of rules) {
    const id = operationIdIn(paths, rule);
    const operations = atGw.has(id) ? gw : tyk;
    operations[id] = { ...operations[id], [OPERATION_KEYS[rule.kind].key]: entryOf(rule) };
  }
  const ext = objectAt(document[OAS_EXTENSION]);
  const middleware = objectAt(ext.middleware);
  const nextExt: Json = { ...ext };
  // A document without middleware.operations gets one only when a rule needs it.
  if (Object.keys(tyk).length > 0 || middleware.operations !== undefined) nextExt.middleware = { ...middleware, operations: tyk };
  if (ext.operations !== undefined) nextExt.operations = gw;
  return { ...document, paths, [OAS_EXTENSION]: nextExt };
}

/** Where the dashboard names a rule's entry: `x-gw-api-gateway.middleware.operations.<operationId>.<key>`. */
export function oasFieldOfRule(document: Json, rules: EndpointRule[], index: number): string {
  const rule = rules[index]!;
  const paths = { ...objectAt(document.paths) };
  const id = operationIdIn(paths, rule);
  const at = locate(document).gw[id] ? 'operations' : 'middleware.operations';
  return `${OAS_EXTENSION}.${at}.${id}.${OPERATION_KEYS[rule.kind].key}`;
}

/** The gateway names an operation at gw's location whichever it is configured at: compared without `middleware.`. */
const sameLocation = (field: string): string => field.replace(`${OAS_EXTENSION}.middleware.operations.`, `${OAS_EXTENSION}.operations.`);

/** Which of a rule's inputs a refused field belongs to: an input's name, or 'rule' (the entry as a whole). */
export function oasRefusedInput(rule: EndpointRule, ruleField: string, refused: string): string | undefined {
  const [mine, field] = [sameLocation(ruleField), sameLocation(refused)];
  if (field !== mine && !field.startsWith(`${mine}.`) && !field.startsWith(`${mine}[`)) return undefined;
  const head = field.slice(mine.length).replace(/^\./, '').split(/[.[]/)[0] ?? '';
  return oasInputs(rule.kind).find((input) => input.field === head)?.name ?? 'rule';
}

export const OAS_RULES: RulesModel = {
  legend: 'Endpoint designer (operations)',
  note: 'Paths and methods name the document’s operations (one is added when none matches). Response transforms, tracking and the other operation settings: use the JSON or YAML view.',
  kinds: OAS_KINDS,
  inputs: oasInputs,
  anyMethod: () => false,
  hasMethod: () => true,
  newRule: newOasRule,
  withKind: (rule, kind) => ({ ...newOasRule(kind), path: rule.path, method: rule.method || 'GET' }),
  rulesOf: oasRulesOf,
  withRules: withOasRules,
  fieldOfRule: oasFieldOfRule,
  refusedInput: oasRefusedInput,
};
