// `gw up`'s flags, checked before anything starts: a flag it does not know, a port that is not a number from 0 to
// 65535 (`--gateway-port abc` was silently a random port), and a port another program already holds (gw up used to
// start the control plane first, then fail with the gateway's exit) each end it with a message naming the flag or
// the port, and nothing started.
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';

export const usage = `usage: gw up [--licensed] [--kubeconfig FILE] [--state-dir DIR] [--gateway-port PORT] [--dashboard-port PORT]
       gw up --with-node [--state-dir DIR]

Starts the whole system locally and keeps it running until Ctrl-C: a Kubernetes control plane with gw's CRDs, a
gateway on its embedded store, the operator, and a sample API, policy and key.

  --kubeconfig FILE    use this cluster instead of starting a local control plane
                       (default: a local etcd + kube-apiserver + kube-controller-manager; the first run needs Go)
  --state-dir DIR      where gw up keeps data, logs and the kubeconfig
                       (default: $GW_CACHE_DIR/up, GW_CACHE_DIR defaulting to ~/.cache/gw); removed on exit
  --gateway-port PORT  the gateway's port on 127.0.0.1 (default 8080; 0 picks a free one)
  --licensed           licensed mode: also a dashboard (with its web UI) that the gateway loads from and the
                       operator syncs into (GW_MODE=pro); the summary names an access key to sign in with
  --dashboard-port PORT  the dashboard's port on 127.0.0.1 with --licensed (default 3000; 0 picks a free one)
  --with-node          as users run the chart: also a real node on this machine (root, cgroup v1, containerd,
                       runc, CNI plugins, iptables; it names what is missing), the image built here (cached),
                       \`helm install\` of the chart so the operator and a gateway run as pods, and the sample reached
                       through the node address 10.99.0.1 (a NodePort). Only from a clone; not with --licensed or
                       --kubeconfig. One node per machine.
`;

export interface UpOptions {
  help: boolean;
  kubeconfig?: string;
  stateDir?: string;
  /** 0: a free one. */
  gatewayPort: number;
  licensed: boolean;
  /** 0: a free one. */
  dashboardPort: number;
  withNode: boolean;
}

/** The parsed flags, or the message saying which one is wrong (an exit 2). */
export function parseUpOptions(argv: string[]): UpOptions | { problem: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        kubeconfig: { type: 'string' },
        'state-dir': { type: 'string' },
        'gateway-port': { type: 'string', default: '8080' },
        licensed: { type: 'boolean', default: false },
        'dashboard-port': { type: 'string', default: '3000' },
        'with-node': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const gatewayPort = portNumber(values['gateway-port']);
  if (gatewayPort === undefined) return { problem: `--gateway-port takes a port number from 0 to 65535 (0 picks a free one), not "${values['gateway-port']}"` };
  const dashboardPort = portNumber(values['dashboard-port']);
  if (dashboardPort === undefined)
    return { problem: `--dashboard-port takes a port number from 0 to 65535 (0 picks a free one), not "${values['dashboard-port']}"` };
  return {
    help: values.help,
    kubeconfig: values.kubeconfig,
    stateDir: values['state-dir'],
    gatewayPort,
    licensed: values.licensed,
    dashboardPort,
    withNode: values['with-node'],
  };
}

function portNumber(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port <= 65_535 ? port : undefined;
}

/** The message for the first of these ports (0 is skipped) that cannot be bound on 127.0.0.1, else undefined. */
export async function takenPortProblem(ports: { port: number; flag: string; what: string }[]): Promise<string | undefined> {
  for (const { port, flag, what } of ports) {
    if (port === 0) continue;
    const failure = await bindFailure(port);
    if (failure === undefined) continue;
    const why = failure === 'EADDRINUSE' ? 'is taken by another program' : `cannot be used (${failure})`;
    return `port ${port} on 127.0.0.1 ${why}; ${what} listens there. Free it, choose another with ${flag} PORT, or pass ${flag} 0 for a free one`;
  }
  return undefined;
}

/** The error code of binding port on 127.0.0.1 (released at once), or undefined when it binds. */
function bindFailure(port: number): Promise<string | undefined> {
  return new Promise((resolveBind) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolveBind(error.code ?? error.message));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolveBind(undefined)));
  });
}
