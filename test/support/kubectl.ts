// kubectl for tests, run exactly as a user runs it (the real binary, the suite's kubeconfig), plus a namespace
// per test. Use inside integration/e2e tests only: the kubeconfig and binaries come from the global setup.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Standard input. */
  input?: string;
  /** Resolve with the failure instead of throwing. */
  allowFailure?: boolean;
  timeoutMs?: number;
  /** Another cluster than the suite's (a test's own control plane). */
  kubeconfig?: string;
}

export function clusterEnv(kubeconfig = inject('kubeconfig')): NodeJS.ProcessEnv {
  const binDir = inject('binDir');
  return { ...process.env, KUBECONFIG: kubeconfig, PATH: `${binDir}:${process.env.PATH ?? ''}` };
}

/** Runs a command of binDir (kubectl, helm) against the suite's cluster. */
export function runTool(tool: 'kubectl' | 'helm', args: string[], options: RunOptions = {}): Promise<CommandResult> {
  return new Promise((resolveRun, reject) => {
    const child = execFile(
      join(inject('binDir'), tool),
      args,
      { env: clusterEnv(options.kubeconfig), timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const result = { code, stdout, stderr };
        if (code !== 0 && !options.allowFailure) {
          reject(new Error(`${tool} ${args.join(' ')} failed (exit ${code}): ${stderr || stdout}`));
        } else {
          resolveRun(result);
        }
      },
    );
    // A tool that exits without reading its input (a refused command, a timeout) closes the pipe first: EPIPE on
    // stdin is then not the test's error (uncaught, it failed a whole run); the exit code above reports the command.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}

export function kubectl(args: string[], options?: RunOptions): Promise<CommandResult> {
  return runTool('kubectl', args, options);
}

/** A fresh namespace for each test of the calling file; deleted (without waiting) after it. */
/**
 * One namespace for the whole describe block (created before its other beforeAll hooks, deleted after its tests):
 * for a file whose one operator, started in beforeAll, serves every test. useNamespace's name is set only in
 * beforeEach, so an operator started in beforeAll with it would watch every namespace (startOperator refuses that).
 */
export function useFileNamespace(prefix = 't'): { readonly name: string } {
  const current = { name: '' };
  beforeAll(async () => {
    current.name = `${prefix}-${randomBytes(4).toString('hex')}`;
    await kubectl(['create', 'namespace', current.name]);
  });
  afterAll(async () => {
    if (current.name) await kubectl(['delete', 'namespace', current.name, '--wait=false'], { allowFailure: true });
  });
  return current;
}

export function useNamespace(prefix = 't'): { readonly name: string } {
  const current = { name: '' };
  beforeEach(async () => {
    current.name = `${prefix}-${randomBytes(4).toString('hex')}`;
    await kubectl(['create', 'namespace', current.name]);
  });
  afterEach(async () => {
    if (current.name) await kubectl(['delete', 'namespace', current.name, '--wait=false'], { allowFailure: true });
  });
  return current;
}
