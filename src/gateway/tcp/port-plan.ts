// Which tcp and tls APIs get a port, decided on each load before any socket opens: Tyk Gateway's port whitelist
// (ports_whitelist per protocol, unless disable_ports_whitelist), never a port of the gateway itself, and at most one
// API per port (the one already serving it keeps it), except tls APIs with different `domain`s sharing a port (routed by SNI, as Tyk Gateway does; at most
// one of them without a domain, taking connections whose name matches no other). An API that cannot have its port is
// a load problem naming the port and, for a conflict, the API that keeps it (the operator's Ready=False).
import type { GatewayConfig } from '../config.ts';
import type { LoadProblem } from '../load-problem.ts';
import type { TcpApi } from './tcp-api.ts';

export interface PortPlan {
  port: number;
  protocol: 'tcp' | 'tls';
  apis: TcpApi[];
}

type PlanConfig = Pick<GatewayConfig, 'listen_port' | 'control_api_port' | 'ports_whitelist' | 'disable_ports_whitelist' | 'http_server_options'>;

/**
 * Groups the APIs by port; the refused ones as problems. An API already serving its port (`serving(id, port)`) keeps
 * it against a newcomer, else id order decides, so the same APIs always win.
 */
export function planPorts(
  apis: readonly TcpApi[],
  config: PlanConfig,
  serving: (id: string, port: number) => boolean = () => false,
): { plans: Map<number, PortPlan>; problems: LoadProblem[] } {
  const plans = new Map<number, PortPlan>();
  const problems: LoadProblem[] = [];
  const own = new Set([config.listen_port, config.control_api_port, config.http_server_options.https_port].filter((p) => p > 0));
  const refuse = (api: TcpApi, message: string, extra: Partial<LoadProblem> = {}): void => {
    problems.push({ source: 'tcp', id: api.id, reason: 'ListenPortNotOpened', message, ...extra });
  };
  const rank = (api: TcpApi): number => (serving(api.id, api.port) ? 0 : 1);
  const ordered = [...apis].sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const api of ordered) {
    if (own.has(api.port)) {
      refuse(api, `listen_port ${api.port}: a ${api.protocol} API can't have the same port as the gateway's own listeners`);
      continue;
    }
    if (!config.disable_ports_whitelist && !whitelisted(config.ports_whitelist, api.protocol, api.port)) {
      refuse(api, `${api.protocol}:${api.port} trying to open disabled port (add it to ports_whitelist.${api.protocol} or set disable_ports_whitelist)`);
      continue;
    }
    const plan = plans.get(api.port);
    if (!plan) {
      plans.set(api.port, { port: api.port, protocol: api.protocol, apis: [api] });
      continue;
    }
    const kept = plan.apis[0]!;
    const clash = plan.protocol !== api.protocol || api.protocol === 'tcp' || plan.apis.find((other) => other.domain === api.domain);
    if (clash) {
      const why =
        plan.protocol !== api.protocol
          ? `it is a ${plan.protocol} port`
          : api.protocol === 'tcp'
            ? 'several tcp APIs cannot share a port (no SNI without TLS)'
            : `a tls API with ${api.domain ? `domain ${api.domain}` : 'no domain'} already has it`;
      const holder = typeof clash === 'object' ? clash : kept;
      refuse(api, `listen_port ${api.port} is already served by api ${holder.id}: ${why}`, { reason: 'ListenPortConflict', conflicts_with: holder.id });
      continue;
    }
    plan.apis.push(api);
  }
  return { plans, problems };
}

function whitelisted(list: PlanConfig['ports_whitelist'], protocol: string, port: number): boolean {
  const entry = list[protocol];
  if (!entry) return false;
  return entry.ports.includes(port) || entry.ranges.some((range) => range.from <= port && port <= range.to);
}
