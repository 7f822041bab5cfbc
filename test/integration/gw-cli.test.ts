// The `gw` command's own answers: `gw help <command>` is that command's usage (it printed the general help), and a
// gateway's output carries no "WASI is an experimental feature" warning from Node (the template engine runs on
// node:wasi; every `gw gateway`, even `--help`, printed it).
import { describe, expect, it } from 'vitest';
import { runGw } from '../support/cli.ts';

describe('gw', () => {
  it('`gw help up` prints the usage of gw up, as `gw up --help` does', async () => {
    const help = await runGw(['help', 'up']);
    const direct = await runGw(['up', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: gw up /);
    expect(help.stdout).toBe(direct.stdout);
  });

  it('`gw help` of a command it does not know says so and exits 2', async () => {
    const { code, stderr } = await runGw(['help', 'upp']);
    expect(code).toBe(2);
    expect(stderr).toContain('gw: unknown command "upp"');
  });

  it('`gw gateway --help` prints its usage and nothing on stderr', async () => {
    const { code, stdout, stderr } = await runGw(['gateway', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('gw gateway');
    expect(stderr).toBe('');
  });
});
