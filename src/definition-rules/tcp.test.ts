// The rules of tcp and tls APIs (definition-rules/tcp.ts) as the admission webhook and the gateway's loader apply
// them through classicDefinitionProblems: what such an API needs (listen_port, a tcp:// or tls:// target) and
// what it must not carry (authentication, load balancing); no listen path is asked of it.
import { describe, expect, it } from 'vitest';
import { classicDefinitionProblems } from './classic-definition.ts';
import { parseStreamTarget } from './tcp.ts';

/** Tyk Operator's redis-tcp sample. */
const redisTcp = { name: 'redis-tcp', active: true, protocol: 'tcp', listen_port: 6380, proxy: { target_url: 'tcp://localhost:6379' } };

describe('tcp and tls API rules', () => {
  it("accepts Tyk Operator's redis-tcp sample: no listen_path, no auth field", () => {
    expect(classicDefinitionProblems(redisTcp, 'spec')).toEqual([]);
  });

  it("asks for listen_port with Tyk Gateway's words", () => {
    const { listen_port: _port, ...withoutPort } = redisTcp;
    expect(classicDefinitionProblems(withoutPort, 'spec')).toEqual([
      expect.objectContaining({ field: 'spec.listen_port', type: 'Required', message: expect.stringContaining('missing listening port') as string }),
    ]);
  });

  it("takes tcp://, tls:// and a bare host:port; refuses another scheme with Tyk Gateway's message", () => {
    expect(parseStreamTarget('tcp://redis.default.svc:6379')).toEqual({ tls: false, host: 'redis.default.svc', port: 6379 });
    expect(parseStreamTarget('tls://[::1]:6380')).toEqual({ tls: true, host: '::1', port: 6380 });
    expect(parseStreamTarget('127.0.0.1:6379')).toEqual({ tls: false, host: '127.0.0.1', port: 6379 });
    expect(parseStreamTarget('http://redis:6379')).toBe('Unsupported protocol. Should be empty, `tcp` or `tls`');
    expect(parseStreamTarget('tcp://redis')).toBe('must be tcp://host:port, tls://host:port or host:port');
    const problems = classicDefinitionProblems({ ...redisTcp, proxy: { target_url: 'http://redis:6379' } }, 'spec');
    expect(problems).toEqual([expect.objectContaining({ field: 'spec.proxy.target_url', type: 'Invalid' })]);
  });

  it('refuses authentication and load balancing by name: nothing could apply them to a stream', () => {
    const problems = classicDefinitionProblems(
      { ...redisTcp, protocol: 'tls', use_basic_auth: true, enable_jwt: true, proxy: { ...redisTcp.proxy, enable_load_balancing: true } },
      '',
    );
    expect(problems.map((p) => [p.field, p.type])).toEqual([
      ['proxy.enable_load_balancing', 'Forbidden'],
      ['use_basic_auth', 'Forbidden'],
      ['enable_jwt', 'Forbidden'],
    ]);
  });

  it('still asks an http API for its listen path', () => {
    const { protocol: _protocol, ...http } = redisTcp;
    expect(classicDefinitionProblems({ ...http, proxy: { target_url: 'http://localhost:6379' } }, '')).toEqual([
      expect.objectContaining({ field: 'proxy.listen_path', type: 'Required' }),
    ]);
  });
});
