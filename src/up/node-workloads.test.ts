// The gateway pod `gw up --with-node` deploys (node-workloads.ts) sizes its worker threads from the container's CPU
// limit through the downward API, whole cores rounded up, rather than from the cores of the node.
import { describe, expect, it } from 'vitest';
import { gatewayWorkload } from './node-workloads.ts';

interface Container {
  name: string;
  env?: { name: string; valueFrom?: { resourceFieldRef?: Record<string, string> } }[];
}

describe('gatewayWorkload', () => {
  it('passes GW_GATEWAY_WORKERS from limits.cpu (divisor 1) of the gateway container', () => {
    const deployment = gatewayWorkload({}).find((item) => item.kind === 'Deployment') as { spec: { template: { spec: { containers: Container[] } } } };
    const gateway = deployment.spec.template.spec.containers.find((container) => container.name === 'gateway')!;
    expect(gateway.env).toContainEqual({
      name: 'GW_GATEWAY_WORKERS',
      valueFrom: { resourceFieldRef: { containerName: 'gateway', resource: 'limits.cpu', divisor: '1' } },
    });
  });
});
