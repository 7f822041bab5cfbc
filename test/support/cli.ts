// Runs `bin/gw` once to its exit, as a user would from a shell, and hands back the exit code, stderr and stdout.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/up/paths.ts';

/** `env` is merged over this process's environment; a key set to undefined is removed. */
export function runGw(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
  return new Promise((resolveRun) => {
    const child = spawn(join(REPO_ROOT, 'bin', 'gw'), args, { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('close', (code) => resolveRun({ code, stderr, stdout }));
  });
}
