// Which tcp and tls APIs get their listen_port (tcp/port-plan.ts): Tyk Gateway's ports_whitelist per protocol and
// disable_ports_whitelist, the gateway's own ports, and sharing a port (tls by SNI domain only; the API already
// serving a port keeps it).
import { describe, expect, it } from 'vitest';
import { GatewayConfigSchema } from '../config.ts';
import { planPorts } from './port-plan.ts';
import type { TcpApi } from './tcp-api.ts';

const api = (id: string, port: number, protocol: 'tcp' | 'tls' = 'tcp', domain?: string): TcpApi => ({
  id,
  protocol,
  port,
  domain,
  target: { tls: false, host: '127.0.0.1', port: 6379 },
  ipAccess: undefined,
  certificates: [],
  fingerprint: id,
});
const config = (extra: Record<string, unknown> = {}) =>
  GatewayConfigSchema.parse({
    secret: 's',
    listen_port: 8080,
    ports_whitelist: { tcp: { ports: [6380], ranges: [{ from: 7000, to: 7010 }] }, tls: { ports: [6443] } },
    ...extra,
  });
const ports = (plan: ReturnType<typeof planPorts>) => [...plan.plans.values()].map((p) => [p.port, p.apis.map((a) => a.id)]);

describe('planPorts', () => {
  it('opens whitelisted ports and ranges for their protocol only, as Tyk Gateway', () => {
    const plan = planPorts([api('a', 6380), api('b', 7005), api('c', 6443), api('d', 6443, 'tls'), api('e', 7011)], config());
    expect(ports(plan)).toEqual([
      [6380, ['a']],
      [7005, ['b']],
      [6443, ['d']],
    ]);
    expect(plan.problems).toEqual([
      expect.objectContaining({ id: 'c', reason: 'ListenPortNotOpened', message: expect.stringContaining('tcp:6443 trying to open disabled port') as string }),
      expect.objectContaining({ id: 'e', message: expect.stringContaining('tcp:7011 trying to open disabled port') as string }),
    ]);
  });

  it("opens any port with disable_ports_whitelist, never the gateway's own", () => {
    const plan = planPorts([api('a', 9999), api('b', 8080), api('c', 8443)], config({ disable_ports_whitelist: true, control_api_port: 8443 }));
    expect(ports(plan)).toEqual([[9999, ['a']]]);
    expect(plan.problems.map((p) => p.id)).toEqual(['b', 'c']);
  });

  it('refuses a second tcp API on a port, naming the one that keeps it', () => {
    const plan = planPorts([api('second', 6380), api('first', 6380)], config());
    expect(ports(plan)).toEqual([[6380, ['first']]]);
    expect(plan.problems).toEqual([expect.objectContaining({ id: 'second', reason: 'ListenPortConflict', conflicts_with: 'first' })]);
  });

  it('keeps the port for the API already serving it against a newcomer that sorts first', () => {
    const plan = planPorts([api('newcomer', 6380), api('serving', 6380)], config(), (id, port) => id === 'serving' && port === 6380);
    expect(ports(plan)).toEqual([[6380, ['serving']]]);
    expect(plan.problems[0]).toMatchObject({ id: 'newcomer', conflicts_with: 'serving' });
  });

  it('shares a tls port between different domains and one API without a domain; refuses a repeated domain', () => {
    const plan = planPorts(
      [api('a', 6443, 'tls', 'a.test'), api('b', 6443, 'tls', 'b.test'), api('c', 6443, 'tls'), api('d', 6443, 'tls', 'a.test'), api('e', 6443, 'tls')],
      config(),
    );
    expect(ports(plan)).toEqual([[6443, ['a', 'b', 'c']]]);
    expect(plan.problems).toEqual([
      expect.objectContaining({ id: 'd', conflicts_with: 'a', message: expect.stringContaining('domain a.test') as string }),
      expect.objectContaining({ id: 'e', conflicts_with: 'c' }),
    ]);
  });
});
