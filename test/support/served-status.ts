// Every gw object's status against what the gateway really serves: lists the objects of every gw kind (one
// `kubectl get <kind> -A -o json` per CRD of config/crd/bases, so a new kind is covered without a change here) and,
// for each one whose status claims success (Ready=True, or SYNCSTATUS Successful), checks that the gateway serves
// it: an API is known to the gateway, absent from /gw/load-problems, and its listen path (on its domain) answers
// something other than 404; a policy is known to the gateway; a SubGraph's or SuperGraph's serving API is served.
// Kinds the gateway does not serve (a connection, the portal's objects on the dashboard) are checked by the
// caller's `elsewhere`. An object that does not claim success must say why (a Ready condition with a reason); an
// Ingress template (status.ingressTemplate) is no API and must not be served.
import { connect } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/up/paths.ts';
import type { RunningGateway } from './gateway.ts';
import { kubectl } from './kubectl.ts';
import { ready, type Resource } from './resources.ts';

export interface GwObject extends Resource {
  kind: string;
}

/** The plural resource name of every gw kind (from config/crd/bases/gw.gw.io_<plural>.yaml). */
export const GW_KINDS: string[] = readdirSync(join(REPO_ROOT, 'config', 'crd', 'bases'))
  .map((file) => /^gw\.gw\.io_(.+)\.yaml$/.exec(file)?.[1])
  .filter((plural): plural is string => plural !== undefined)
  .sort();

export async function listGwObjects(namespace?: string): Promise<GwObject[]> {
  const lists = await Promise.all(
    GW_KINDS.map(async (plural) => {
      const scope = namespace ? ['-n', namespace] : ['-A'];
      const { stdout } = await kubectl(['get', `${plural}.gw.gw.io`, ...scope, '-o', 'json']);
      return (JSON.parse(stdout) as { items: GwObject[] }).items;
    }),
  );
  return lists.flat();
}

export const nameOf = (object: GwObject): string => `${object.kind} ${object.metadata.namespace}/${object.metadata.name}`;

/** Its status says it works: Ready=True for its current generation, or its last write Successful. */
export function claimsSuccess(object: GwObject): boolean {
  const condition = ready(object);
  const readyNow = condition?.status === 'True' && (condition.observedGeneration === undefined || condition.observedGeneration === object.metadata.generation);
  return readyNow || object.status?.latestTransaction?.status === 'Successful';
}

/** An Ingress template (status.ingressTemplate, the INGRESSTEMPLATE column): a pattern for Ingress paths, never an API itself. */
export const isIngressTemplate = (object: GwObject): boolean => object.kind === 'ApiDefinition' && object.status?.ingressTemplate === true;

/** A check of an object the gateway does not serve: undefined when it is where its status says, else what is wrong. */
export type ElsewhereCheck = (object: GwObject) => Promise<string | undefined>;

export interface ServedCheckOptions {
  gateway: RunningGateway;
  /** Kinds (as `kind`) the gateway does not serve, with their own check. */
  elsewhere: Record<string, ElsewhereCheck>;
}

interface GatewayView {
  problems: Map<string, string>;
}

async function gatewayView(gateway: RunningGateway): Promise<GatewayView> {
  const report = await gateway.admin('GET', '/gw/load-problems');
  if (report.status !== 200) throw new Error(`GET /gw/load-problems answered ${report.status}: ${report.text}`);
  const problems = report.json<{ problems: { id?: string; message: string }[] }>().problems;
  return { problems: new Map(problems.filter((p) => p.id).map((p) => [p.id!, p.message])) };
}

/** Undefined when the gateway serves the API of this id; else why not. */
async function apiServed(gateway: RunningGateway, view: GatewayView, id: string | undefined): Promise<string | undefined> {
  if (!id) return 'no API id in its status';
  const problem = view.problems.get(id);
  if (problem) return `the gateway reports a load problem for ${id}: ${problem}`;
  const found = await gateway.admin('GET', `/gw/apis/${encodeURIComponent(id)}`);
  if (found.status !== 200) return `the gateway does not know API ${id} (${found.status})`;
  const api = found.json<{ domain?: string; internal?: boolean; protocol?: string; listen_port?: number; proxy: { listen_path: string } }>();
  // A tcp or tls API is served when its port accepts connections.
  if (api.protocol === 'tcp' || api.protocol === 'tls')
    return (await accepts(api.listen_port ?? 0)) ? undefined : `its listen_port ${api.listen_port} refuses connections`;
  const headers: Record<string, string> = api.domain ? { host: api.domain } : {};
  const answer = await gateway.call(api.proxy.listen_path, { headers });
  // An internal API is served only to loops (tyk://): loaded without a problem, its listen path must answer 404.
  if (api.internal) return answer.status === 404 ? undefined : `it is internal, yet its listen path ${api.proxy.listen_path} answers ${answer.status}`;
  return answer.status === 404 ? `its listen path ${api.domain ?? ''}${api.proxy.listen_path} answers 404: ${answer.text.slice(0, 200)}` : undefined;
}

async function servedByGateway(object: GwObject, all: GwObject[], options: ServedCheckOptions, view: GatewayView): Promise<string | undefined> {
  const status = (object.status ?? {}) as Record<string, unknown>;
  switch (object.kind) {
    case 'ApiDefinition':
      return apiServed(options.gateway, view, status.api_id as string | undefined);
    case 'GwOasApiDefinition':
    case 'GwStreamsApiDefinition':
      return apiServed(options.gateway, view, status.id as string | undefined);
    case 'SecurityPolicy': {
      const found = await options.gateway.admin('GET', `/gw/policies/${encodeURIComponent(String(status.pol_id))}`);
      return found.status === 200 ? undefined : `the gateway does not know policy ${String(status.pol_id)} (${found.status})`;
    }
    case 'SubGraph':
      return apiServed(options.gateway, view, status.linked_by_api as string | undefined);
    case 'SuperGraph': {
      // status.linked_by_apis: the ApiDefinitions serving it, as <namespace>/<name>.
      const keys = (status.linked_by_apis as string[] | undefined) ?? [];
      if (keys.length === 0) return 'no API serves it (status.linked_by_apis is empty)';
      for (const key of keys) {
        const api = all.find((o) => o.kind === 'ApiDefinition' && `${o.metadata.namespace}/${o.metadata.name}` === key);
        const why = await apiServed(options.gateway, view, api?.status?.api_id as string | undefined);
        if (why) return `ApiDefinition ${key}: ${why}`;
      }
      return undefined;
    }
    default: {
      const check = options.elsewhere[object.kind];
      return check ? check(object) : `no check for kind ${object.kind}: add one to elsewhere`;
    }
  }
}

/**
 * Every way an object's status is untrue: one line per object claiming success that is not served (saying why),
 * and per object not claiming success whose status does not say why. Empty when every status is true.
 */
export async function untrueStatuses(objects: GwObject[], options: ServedCheckOptions): Promise<string[]> {
  const view = await gatewayView(options.gateway);
  const verdicts = await Promise.all(
    objects.map(async (object) => {
      if (isIngressTemplate(object)) {
        const listenPath = (object.spec?.proxy as { listen_path: string }).listen_path;
        const answer = await options.gateway.call(listenPath);
        return answer.status === 404 ? undefined : `${nameOf(object)} is an Ingress template, yet its listen path ${listenPath} answers ${answer.status}`;
      }
      if (!claimsSuccess(object)) {
        const condition = ready(object);
        return condition?.status === 'False' && condition.reason
          ? undefined
          : `${nameOf(object)} is not Ready but its status does not say why: ${JSON.stringify(object.status)}`;
      }
      const why = await servedByGateway(object, objects, options, view);
      return why ? `${nameOf(object)} says Ready/Successful but is not served: ${why}` : undefined;
    }),
  );
  return verdicts.filter((line): line is string => line !== undefined);
}

/** Whether a loopback port accepts a TCP connection (closed at once). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccept) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveAccept(true);
    });
    socket.once('error', () => resolveAccept(false));
  });
}
