// The Node bootstrap (scripts/node24.mjs, which runs every gw command and npm script where the machine's node is
// older) under a real terminal: a Ctrl-C reaches the command once. The terminal signals the whole foreground process
// group, so a bootstrap that also forwarded it delivered it twice, and a second SIGINT means "force": `gw up` was
// killed half-way through its clean-up. Runs under `script`, which gives the processes a real pseudo-terminal; the
// Ctrl-C is the byte a keyboard sends (0x03), turned into SIGINT by the terminal's line discipline.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { waitUntil } from '../support/wait.ts';

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;
const counter = join(import.meta.dirname, 'testdata', 'gw-child', 'signal-counter.mjs');
const bootstrap = join(REPO_ROOT, 'scripts', 'node24.mjs');
const killed: number[] = [];
afterAll(() => {
  for (const pid of killed) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe('the Node bootstrap in a terminal', () => {
  it('passes one Ctrl-C to the command once, and still forwards the signals a terminal does not send', async () => {
    const command = [process.execPath, bootstrap, process.execPath, counter].map(quote).join(' ');
    const terminal = spawn('script', ['-qefc', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    killed.push(terminal.pid!);
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const bootstrapPid = Number(await waitUntil('the command is ready', () => /ready (\d+)/.exec(output)?.[1]));
    killed.push(bootstrapPid);

    terminal.stdin.write('\x03'); // Ctrl-C
    await waitUntil('the command gets the Ctrl-C', () => output.includes('SIGINT 1'));
    process.kill(bootstrapPid, 'SIGUSR2'); // forwarded after anything the bootstrap forwarded for the Ctrl-C
    await waitUntil('the command reports and exits', () => /total \d+/.test(output));
    expect(/total (\d+)/.exec(output)?.[1]).toBe('1');
  });
});
