// Gathers what the gateway serves: API definitions from the store (written through the management API) and from
// file mode (app_path/*.json: Classic, or OAS when the document has x-gw-api-gateway) or, in licensed mode, from the
// dashboard's snapshot instead of the files; policies from the store and from the policies file
// (policies.policy_path: a JSON object mapping policy id to policy) or the dashboard (policy_source service). The
// store wins when an id exists in both. Then compiles every active API (keeping the ones compiled by the served load
// whose inputs are unchanged: compiled-apis.ts) and builds a routing table.
//
// Nothing here stops a load: a definition that cannot be served (invalid JSON, a file API without an id, a
// failed compilation, two APIs on one listen path) is reported — source, id, reason — and the rest load.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Policy } from '../domain/policy.ts';
import { GW_EXTENSION } from '../domain/oas.ts';
import type { GatewayConfig } from './config.ts';
import type { RemoteDefinitions } from './dashboard-sync/sync.ts';
import { describeIssues } from '../domain/zod-issues.ts';
import { checkApiId, compileApi, isActive, parseClassic, parseOas } from './definition/compile.ts';
import type { CompiledApi } from './pipeline/contract.ts';
import { compileRoute } from './proxy/compiled-api.ts';
import { CompiledApis, loadInputs, type CompileRound } from './compiled-apis.ts';
import { RoutingTable } from './proxy/router.ts';
import type { PipelineServices } from './pipeline/services.ts';
import type { Store, StoredApi, StoredPolicy } from './store/store.ts';
import type { LoadProblem } from './load-problem.ts';
import { compileTcpApi, isTcpDefinition, type TcpApi } from './tcp/tcp-api.ts';

export interface Sourced<T> {
  item: T;
  /** `store` or the file it came from. */
  source: string;
}

export interface Definitions {
  apis: Map<string, Sourced<StoredApi>>;
  policies: Map<string, Sourced<StoredPolicy>>;
  problems: LoadProblem[];
}

/**
 * Everything the gateway would serve now: files (or, in licensed mode, the dashboard's snapshot) and the store, the
 * store winning on an id.
 */
export async function collectDefinitions(store: Store, config: GatewayConfig, remote?: RemoteDefinitions): Promise<Definitions> {
  const problems: LoadProblem[] = [...(remote?.problems ?? [])];
  const apis = unstoredApis(config, remote, problems);
  for (const api of await store.listApis()) {
    const shadowed = apis.get(api.id);
    if (shadowed)
      problems.push({ source: shadowed.source, id: api.id, message: `api id ${api.id} is also managed through the API; the stored definition wins` });
    apis.set(api.id, { item: api, source: 'store' });
  }
  const policies = unstoredPolicies(config, remote, problems);
  for (const policy of await store.listPolicies()) policies.set(policy.id, { item: policy, source: 'store' });
  return { apis, policies, problems };
}

/**
 * The one API collectDefinitions would answer for `id`, without listing the store: a management read or write
 * costs the same with ten thousand stored APIs as with one (listing them all per request made 10 000 writes
 * quadratic: 12 ms each at the end, most of it copying the list between the gateway's threads).
 */
export async function findApi(store: Store, config: GatewayConfig, remote: RemoteDefinitions | undefined, id: string): Promise<Sourced<StoredApi> | undefined> {
  const stored = await store.getApi(id);
  if (stored) return { item: stored, source: 'store' };
  return unstoredApis(config, remote, []).get(id);
}

/** The one policy collectDefinitions would answer for `id`, without listing the store (as findApi). */
export async function findPolicy(
  store: Store,
  config: GatewayConfig,
  remote: RemoteDefinitions | undefined,
  id: string,
): Promise<Sourced<StoredPolicy> | undefined> {
  const stored = await store.getPolicy(id);
  if (stored) return { item: stored, source: 'store' };
  return unstoredPolicies(config, remote, []).get(id);
}

/** The APIs from files, or in licensed mode from the dashboard's snapshot (the first file wins on an id). */
function unstoredApis(config: GatewayConfig, remote: RemoteDefinitions | undefined, problems: LoadProblem[]): Map<string, Sourced<StoredApi>> {
  const apis = new Map<string, Sourced<StoredApi>>();
  if (config.use_db_app_configs) {
    for (const api of remote?.apis ?? []) apis.set(api.id, { item: api, source: 'dashboard' });
    return apis;
  }
  for (const file of apiFiles(config.app_path, problems)) {
    if (apis.has(file.item.id))
      problems.push({
        source: file.source,
        id: file.item.id,
        message: `api id ${file.item.id} is also defined in ${apis.get(file.item.id)!.source}; this file is ignored`,
      });
    else apis.set(file.item.id, file);
  }
  return apis;
}

/** The policies from the policies file, or from the dashboard (policy_source service). */
function unstoredPolicies(config: GatewayConfig, remote: RemoteDefinitions | undefined, problems: LoadProblem[]): Map<string, Sourced<StoredPolicy>> {
  const policies = new Map<string, Sourced<StoredPolicy>>();
  if (config.policies.policy_source === 'service') {
    for (const policy of remote?.policies ?? []) policies.set(policy.id, { item: policy, source: 'dashboard' });
  } else {
    for (const policy of policyFile(config.policies.policy_path, problems)) policies.set(policy.item.id, policy);
  }
  return policies;
}

export interface LoadResult {
  table: RoutingTable<CompiledApi>;
  policies: Map<string, StoredPolicy>;
  problems: LoadProblem[];
  /** APIs with protocol tcp or tls: served on their own ports (tcp/tcp-listeners.ts), not routed. */
  tcpApis: TcpApi[];
  /** What this load compiled and kept: `compiled.commit(round)` once the table serves. */
  round: CompileRound;
}

/** `compiled`: the APIs the served load compiled, kept when their inputs are unchanged (default: none, compile all). */
export async function loadRoutes(
  store: Store,
  services: PipelineServices,
  remote?: RemoteDefinitions,
  compiled = new CompiledApis(services.config),
): Promise<LoadResult> {
  const { apis, policies, problems } = await collectDefinitions(store, services.config, remote);
  const round = compiled.round(loadInputs(await store.listCerts(), policies.keys()));
  const build = (api: StoredApi): CompiledApi => compileRoute(compileApi(api), services);
  const routes: CompiledApi[] = [];
  const tcpApis: TcpApi[] = [];
  for (const { item, source } of apis.values()) {
    try {
      if (!isActive(item)) continue;
      if (isTcpDefinition(item)) tcpApis.push(compileTcpApi(item));
      else routes.push(round.compile(item, build));
    } catch (error) {
      problems.push({
        source,
        id: item.id,
        reason: 'DefinitionNotServed',
        message: error instanceof z.ZodError ? describeIssues(error) : (error as Error).message,
      });
    }
  }
  const table = new RoutingTable(routes);
  for (const { rejected, kept } of table.conflicts) {
    problems.push({
      source: 'routing',
      id: rejected.spec.id,
      reason: 'ListenPathConflict',
      conflicts_with: kept.spec.id,
      message: `listen path ${rejected.listenPath}${rejected.domain ? ` on ${rejected.domain}` : ''} is already served by api ${kept.spec.id}`,
    });
  }
  return { table, policies: new Map([...policies].map(([id, p]) => [id, p.item])), problems, tcpApis, round };
}

function apiFiles(dir: string, problems: LoadProblem[]): Sourced<StoredApi>[] {
  if (!existsSync(dir)) return [];
  const found: Sourced<StoredApi>[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const source = join(dir, name);
    try {
      const body = JSON.parse(readFileSync(source, 'utf8')) as unknown;
      const oas = typeof body === 'object' && body !== null && GW_EXTENSION in body;
      if (oas) {
        const doc = parseOas(body);
        const id = (doc[GW_EXTENSION] as { info: { id?: string } }).info.id;
        if (!id) throw new Error(`${GW_EXTENSION}.info.id is required in file mode`);
        checkApiId(id, `${GW_EXTENSION}.info.id`);
        found.push({ item: { id, format: 'oas', definition: doc }, source });
      } else {
        const def = parseClassic(body);
        if (!def.api_id) throw new Error('api_id is required in file mode: a definition without api_id is invalid');
        checkApiId(def.api_id);
        found.push({ item: { id: def.api_id, format: 'classic', definition: def }, source });
      }
    } catch (error) {
      problems.push({ source, message: (error as Error).message });
    }
  }
  return found;
}

function policyFile(path: string, problems: LoadProblem[]): Sourced<StoredPolicy>[] {
  if (!existsSync(path)) return [];
  let body: unknown;
  try {
    body = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push({ source: path, message: `not valid JSON: ${(error as Error).message}` });
    return [];
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.push({ source: path, message: 'must be a JSON object mapping policy id to policy' });
    return [];
  }
  const found: Sourced<StoredPolicy>[] = [];
  for (const [id, value] of Object.entries(body)) {
    const parsed = Policy.safeParse(value);
    if (parsed.success) found.push({ item: { ...parsed.data, id }, source: path });
    else problems.push({ source: path, id, message: describeIssues(parsed.error) });
  }
  return found;
}
