// API definitions as the dashboard accepts them: a Classic definition (bare, or wrapped as {api_definition,
// user_owners, user_group_owners} the way the operator posts it) or an OAS 3.0 document with x-gw-api-gateway.
// Each is validated with its schema from api/, then by the rules the gateway's loader and the operator's webhook run
// (definition-rules/: classicDefinitionProblems, oasDefinitionProblems), 400 naming the field; then bound to the
// caller's organisation:
// org_id (OAS: info.orgId) is forced to it, the id is set (given or generated), and the route (domain + normalised
// listen path) is derived for the clash check. OAS APIs also have a Classic summary (classicSummary) so the
// Classic list shows every API of the organisation.
import { ClassicApiDefinition } from '../domain/classic.ts';
import { GW_EXTENSION, OasDocument } from '../domain/oas.ts';
import { classicDefinitionProblems } from '../definition-rules/classic-definition.ts';
import { oasDefinitionProblems } from '../definition-rules/oas-definition.ts';
import { gatewayMessage, type RuleProblem } from '../definition-rules/problems.ts';
import { checkId, HttpError, isObject, parseWith } from './http.ts';
import { apiId } from './ids.ts';
import type { NewApi, StoredApi } from './store/apis.ts';

const Owners = (value: unknown, field: string): string[] | undefined => {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new HttpError('invalid', `Request malformed: ${field}: must be a list of strings`);
  return value as string[];
};

export interface ClassicInput {
  /** The definition as posted, not yet validated. */
  definition: unknown;
  /** Where the definition sits in the body, for messages: '' or 'api_definition'. */
  prefix: string;
  /** undefined: not given (an update keeps the stored owners). */
  user_owners: string[] | undefined;
  user_group_owners: string[] | undefined;
}

/** A body of POST/PUT /api/apis: the wrapped form when it has an `api_definition` object, else the definition itself. */
export function unwrapClassic(body: Record<string, unknown>): ClassicInput {
  if (!isObject(body.api_definition)) return { definition: body, prefix: '', user_owners: undefined, user_group_owners: undefined };
  return {
    definition: body.api_definition,
    prefix: 'api_definition',
    user_owners: Owners(body.user_owners, 'user_owners'),
    user_group_owners: Owners(body.user_group_owners, 'user_group_owners'),
  };
}

const field = (prefix: string, name: string): string => (prefix ? `${prefix}.${name}` : name);

/** A validated Classic API of the organisation; `id` is the path id of an update. */
export function classicApi(input: ClassicInput, orgId: string, id: string | undefined): NewApi {
  const def = parseWith(ClassicApiDefinition, input.definition, input.prefix);
  if (id !== undefined && def.api_id !== undefined && def.api_id !== '' && def.api_id !== id) {
    throw new HttpError('invalid', `${field(input.prefix, 'api_id')}: does not match the API id in the path (${id}); an API id cannot change`);
  }
  const chosen = checkApiId(id ?? (def.api_id || apiId()), field(input.prefix, 'api_id'));
  // A tcp or tls API has a port, not a path: its route is `<protocol>:<listen_port>` (never an HTTP path, which
  // starts with '/'), so two of the organisation's stream APIs on one port and domain clash as routes do.
  const listenPath =
    def.protocol === 'tcp' || def.protocol === 'tls'
      ? `${def.protocol}:${String(def.listen_port)}`
      : normaliseListenPath(def.proxy?.listen_path, field(input.prefix, 'proxy.listen_path'));
  // What the gateway would refuse at load is refused here (the rules its loader and the operator's webhook run:
  // fields it does not implement, plugins, upstreams, ...), so a 200 always means an API that is served.
  refuseProblem(classicDefinitionProblems(def, input.prefix));
  return {
    id: chosen,
    org_id: orgId,
    format: 'classic',
    definition: { ...def, api_id: chosen, org_id: orgId },
    domain: def.domain ?? '',
    listen_path: listenPath,
    user_owners: input.user_owners ?? [],
    user_group_owners: input.user_group_owners ?? [],
  };
}

/** A validated OAS API of the organisation (the document kept as posted, unknown keys included). */
export function oasApi(body: unknown, orgId: string, id: string | undefined): NewApi {
  if (!isObject(body) || !isObject(body[GW_EXTENSION]))
    throw new HttpError('invalid', `Request malformed: ${GW_EXTENSION}: the OAS document must carry the gateway section`);
  const doc = parseWith(OasDocument, body);
  const ext = doc[GW_EXTENSION];
  const given = ext.info.id;
  if (id !== undefined && given !== undefined && given !== '' && given !== id) {
    throw new HttpError('invalid', `${GW_EXTENSION}.info.id: does not match the API id in the path (${id}); an API id cannot change`);
  }
  const chosen = checkApiId(id ?? (given || apiId()), `${GW_EXTENSION}.info.id`);
  // The document rules the gateway's OAS load runs first (operations, validateRequest, plugins, load balancing, ids).
  refuseProblem(oasDefinitionProblems(doc));
  const domain = ext.server.customDomain?.enabled ? ext.server.customDomain.name : '';
  return {
    id: chosen,
    org_id: orgId,
    format: 'oas',
    definition: { ...doc, [GW_EXTENSION]: { ...ext, info: { ...ext.info, id: chosen, orgId } } },
    domain,
    listen_path: normaliseListenPath(ext.server.listenPath.value, `${GW_EXTENSION}.server.listenPath.value`),
    user_owners: [],
    user_group_owners: [],
  };
}

/** The first problem of a definition rule, as Tyk Dashboard refuses a bad definition: 400 naming the field. */
function refuseProblem(problems: RuleProblem[]): void {
  const first = problems[0];
  if (first) throw new HttpError('invalid', gatewayMessage(first));
}

/** An API id: usable in a URL path, and not `oas` (which /api/apis/oas would shadow). */
function checkApiId(id: string, name: string): string {
  if (id === 'oas') throw new HttpError('invalid', `${name}: "oas" is reserved`);
  return checkId(id, name);
}

/**
 * The path gateways route on: leading '/', no trailing or doubled '/'. Only literal paths; the same rule the
 * gateway applies when it loads the API, checked here so a definition no gateway could load is refused at write.
 */
export function normaliseListenPath(value: string | undefined, name: string): string {
  if (!value) throw new HttpError('invalid', `${name}: is required`);
  if (!value.startsWith('/')) throw new HttpError('invalid', `${name}: must start with '/': ${value}`);
  if (/[{}?#%\\]/.test(value)) throw new HttpError('invalid', `${name}: must be a literal path without {}, ?, #, % or \\: ${value}`);
  const segments = value.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) throw new HttpError('invalid', `${name}: must not contain '.' or '..' segments: ${value}`);
  return `/${segments.join('/')}`;
}

/** The field naming an API's listen path in its format, for clash messages. */
export function listenPathField(api: NewApi, prefix = ''): string {
  return api.format === 'oas' ? `${GW_EXTENSION}.server.listenPath.value` : field(prefix, 'proxy.listen_path');
}

/** The Classic view of a stored API: the definition itself, or for OAS a summary of what the Classic list shows. */
export function classicView(api: StoredApi): Record<string, unknown> {
  if (api.format === 'classic') return api.definition;
  const ext = (api.definition as OasDocument)[GW_EXTENSION];
  return {
    api_id: api.id,
    org_id: api.org_id,
    name: ext.info.name,
    active: ext.info.state.active,
    internal: ext.info.state.internal ?? false,
    domain: api.domain,
    proxy: { listen_path: ext.server.listenPath.value, strip_listen_path: ext.server.listenPath.strip ?? false, target_url: ext.upstream.url },
    is_oas: true,
  };
}

/** An API as the Classic endpoints answer it: Tyk's wrapper around the definition. */
export function wrapped(api: StoredApi): Record<string, unknown> {
  return {
    api_definition: classicView(api),
    user_owners: api.user_owners,
    user_group_owners: api.user_group_owners,
    created_at: api.created_at,
    updated_at: api.updated_at,
  };
}
