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
  /** Kills the tool after this long; default 60 s, or longer when the arguments give it a `--timeout=` of its own. */
  timeoutMs?: number;
  /** Another cluster than the suite's (a test's own control plane). */
  kubeconfig?: string;
}

export function clusterEnv(kubeconfig = inject('kubeconfig')): NodeJS.ProcessEnv {
  const binDir = inject('binDir');
  return { ...process.env, KUBECONFIG: kubeconfig, PATH: `${binDir}:${process.env.PATH ?? ''}` };
}

const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/**
 * How long the tool may run: what the caller says, else 60 s, or the tool's own `--timeout=` (30s, 3m, 1h) plus 15 s
 * when that is longer, so `kubectl rollout status --timeout=180s` is not killed at 60 s while it still waits.
 */
export function toolTimeoutMs(args: string[], given?: number): number {
  if (given !== undefined) return given;
  const unit = { s: 1000, m: 60_000, h: 3_600_000 } as const;
  const own = args
    .map((arg) => /^--timeout=(\d+)(s|m|h)?$/.exec(arg))
    .filter((match) => match !== null)
    .map((match) => Number(match[1]) * unit[(match[2] ?? 's') as keyof typeof unit] + 15_000);
  return Math.max(DEFAULT_TOOL_TIMEOUT_MS, ...own);
}

/** Runs a command of binDir (kubectl, helm) against the suite's cluster. */
export function runTool(tool: 'kubectl' | 'helm', args: string[], options: RunOptions = {}): Promise<CommandResult> {
  return new Promise((resolveRun, reject) => {
    const child = execFile(
      join(inject('binDir'), tool),
      args,
      { env: clusterEnv(options.kubeconfig), timeout: toolTimeoutMs(args, options.timeoutMs), maxBuffer: 64 * 1024 * 1024 },
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
