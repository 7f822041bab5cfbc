// The `gw` entry point: picks the subcommand and hands it the rest of argv. Nothing else lives here.
import { readFileSync } from 'node:fs';
import { flushCompileCache } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from './up/paths.ts';

type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  up: { summary: 'run the whole system locally until Ctrl-C', load: async () => (await import('./up/up.ts')).up },
  gateway: { summary: 'run the gateway (management API + proxy)', load: async () => (await import('./gateway/command.ts')).gateway },
  operator: { summary: 'run the operator (custom resources -> gateway)', load: async () => (await import('./operator/process/command.ts')).operator },
  dashboard: {
    summary: 'run the dashboard (organisations, users, APIs, policies, keys; gateways load from it)',
    load: async () => (await import('./dashboard/command.ts')).dashboard,
  },
  governance: {
    summary: 'run the governance hub (labels on APIs); `token create` issues tokens',
    load: async () => (await import('./governance/command.ts')).governance,
  },
};

function help(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(12)}${command.summary}`);
  return `usage: gw <command> [options]\n\ncommands:\n${lines.join('\n')}\n  version     print the version\n\nRun \`gw <command> --help\` (or \`gw help <command>\`) for a command's options.\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // `gw help <command>` is `gw <command> --help`.
  if (name === 'help' && rest[0] !== undefined) return main([rest[0], '--help']);
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(help());
    return 0;
  }
  if (name === 'version' || name === '--version') {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    process.stdout.write(`gw ${pkg.version}\n`);
    return 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`gw: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  const run = await command.load();
  // Under NODE_COMPILE_CACHE (the test suites set it), write the compiled code of the modules just loaded now:
  // services end by a signal, which skips the write Node does at a normal exit, and the next start reuses it.
  flushCompileCache();
  return run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`gw: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
