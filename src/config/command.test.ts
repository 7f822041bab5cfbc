// The service command runner: flags, --help, --config-reference, configuration errors and known startup refusals,
// with the exit codes the three services promise (0 done, 2 bad arguments or configuration, the refusal's own).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runServiceCommand, type ServiceCommand } from './command.ts';
import { ConfigError } from './file-and-env.ts';

class Refused extends Error {}

function command(overrides: Partial<ServiceCommand<{ port: number }>> = {}): ServiceCommand<{ port: number }> {
  return {
    name: 'svc',
    usage: 'usage: gw svc [--config FILE]\n',
    configReference: () => [{ key: 'port', env: 'GW_SVC_PORT', default: 8080, optional: false, description: 'The port.' }],
    loadConfig: () => ({ config: { port: 1 }, unknownKeys: [] }),
    start: () => Promise.reject(new Error('start must not be reached')),
    ...overrides,
  };
}

function captured(): { out: () => string; err: () => string } {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return { out: () => out.mock.calls.map(([text]) => String(text)).join(''), err: () => err.mock.calls.map(([text]) => String(text)).join('') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runServiceCommand', () => {
  it('prints the usage for --help and exits 0', async () => {
    const io = captured();
    expect(await runServiceCommand(['--help'], command())).toBe(0);
    expect(io.out()).toBe('usage: gw svc [--config FILE]\n');
  });

  it('refuses an unknown flag with exit 2, naming it, then the usage', async () => {
    const io = captured();
    expect(await runServiceCommand(['--nope'], command())).toBe(2);
    expect(io.err()).toMatch(/^gw svc: Unknown option '--nope'[\s\S]*usage: gw svc/);
  });

  it('prints every option for --config-reference and exits 0', async () => {
    const io = captured();
    expect(await runServiceCommand(['--config-reference'], command())).toBe(0);
    expect(io.out()).toBe('port\n  env: GW_SVC_PORT\n  default: 8080\n  The port.\n');
  });

  it('exits 2 with the configuration problems, never starting the service', async () => {
    const io = captured();
    const loadConfig = (file: string | undefined): never => {
      throw new ConfigError('svc', [`port: must be a number (file ${file})`]);
    };
    expect(await runServiceCommand(['--config', 'svc.json'], command({ loadConfig }))).toBe(2);
    expect(io.err()).toBe('gw svc: invalid svc configuration:\n  port: must be a number (file svc.json)\n');
  });

  it('exits with the refusal code and message of a startup error the service knows, and rethrows others', async () => {
    const io = captured();
    const refusal = (error: unknown): number | undefined => (error instanceof Refused ? 1 : undefined);
    expect(await runServiceCommand([], command({ start: () => Promise.reject(new Refused('directory locked')), refusal }))).toBe(1);
    expect(io.err()).toBe('gw svc: directory locked\n');
    await expect(runServiceCommand([], command({ start: () => Promise.reject(new Error('boom')), refusal }))).rejects.toThrow('boom');
  });

  it("lets the service's own flags take over before configuration is read", async () => {
    captured();
    const intercept = (values: Record<string, unknown>): number | undefined => (values.import ? 7 : undefined);
    expect(await runServiceCommand(['--import', 'x'], command({ extraFlags: { import: { type: 'string' } }, intercept }))).toBe(7);
  });
});
