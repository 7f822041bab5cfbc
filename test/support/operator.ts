// A real operator process for tests: `bin/gw operator` exactly as the image runs it, watching only the test's
// namespace (so parallel test files never share resources), pointed at a gateway started by the test, on free
// ports for metrics and probes. Stopped after the test file.
import { afterAll, inject } from 'vitest';
import { freePorts } from '../../src/up/ports.ts';
import { http, SECRET, type RunningGateway } from './gateway.ts';
import { gwProcess } from './gw-process.ts';

export interface RunningOperator {
  metricsPort: number;
  healthPort: number;
  output(): string;
  /** A metric's value (sum over the label sets matching `labels`). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops it (SIGTERM, or the signal given: SIGKILL for a crash) and starts it again on the same ports. */
  restart(signal?: NodeJS.Signals): Promise<void>;
}

const started = new Set<RunningOperator>();
afterAll(async () => {
  await Promise.all([...started].map((op) => op.stop('SIGKILL')));
  started.clear();
});

export async function startOperator(options: {
  gateway: RunningGateway;
  namespace: string;
  env?: Record<string, string | undefined>;
  args?: string[];
}): Promise<RunningOperator> {
  // An empty WATCH_NAMESPACE means every namespace: this operator would write the statuses of other files' objects.
  if (!options.namespace) throw new Error('startOperator: no namespace (useNamespace names it in beforeEach; for a beforeAll operator use useFileNamespace)');
  const [metricsPort, healthPort] = (await freePorts(2)) as [number, number];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KUBECONFIG: inject('kubeconfig'),
    GW_OPERATOR_LICENSEKEY: 'test-license',
    GW_MODE: 'ce',
    GW_URL: options.gateway.controlUrl,
    GW_AUTH: SECRET,
    GW_ORG: 'test-org',
    WATCH_NAMESPACE: options.namespace,
    GW_DRIFT_PERIOD: '60',
    GW_RELOAD_DEBOUNCE_MS: '50',
    ...options.env,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]; // configuration from the secret
  const launched = gwProcess({
    args: ['operator', '--metrics-bind-address', `127.0.0.1:${metricsPort}`, '--health-probe-bind-address', `127.0.0.1:${healthPort}`, ...(options.args ?? [])],
    env,
    readyUrl: `http://127.0.0.1:${healthPort}/readyz`,
    name: 'operator',
  });
  await launched.start();
  const operator: RunningOperator = {
    metricsPort,
    healthPort,
    output: launched.output,
    metric: async (name, labels = {}) => {
      const text = (await http(`http://127.0.0.1:${metricsPort}/metrics`)).text;
      let total = 0;
      for (const line of text.split('\n')) {
        const match = new RegExp(`^${name}(\\{[^}]*\\})? ([0-9.e+-]+)$`).exec(line);
        if (!match) continue;
        if (Object.entries(labels).every(([k, v]) => (match[1] ?? '').includes(`${k}="${v}"`))) total += Number(match[2]);
      }
      return total;
    },
    stop: (signal) => launched.stop(signal),
    restart: async (signal = 'SIGTERM') => {
      await operator.stop(signal);
      await launched.start();
    },
  };
  started.add(operator);
  return operator;
}
