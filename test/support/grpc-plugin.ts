// The Go gRPC plugin server of the gRPC plugin tests (test/support/grpc-plugin: Tyk's coprocess Dispatcher and the
// hooks its main.go lists): built by scripts/build-grpc-plugin.sh (at once when the cached build is current, as CI
// builds it), started on a free loopback port with the coprocess.proto gw ships, stopped after the test file.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROTO = join(REPO_ROOT, 'src', 'gateway', 'plugins', 'grpc', 'coprocess.proto');

let built: string | undefined;
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

export function builtGrpcPlugin(): string {
  built ??= execFileSync(join(REPO_ROOT, 'scripts', 'build-grpc-plugin.sh'), { encoding: 'utf8', env: { ...process.env, GW_BUILD_QUIET: '1' } })
    .trim()
    .split('\n')
    .at(-1)!;
  return built;
}

export interface GrpcPluginServer {
  /** coprocess_grpc_server: tcp://127.0.0.1:<port>. */
  address: string;
  /** Kills it and waits for the exit. */
  stop(): Promise<void>;
}

export function startGrpcPlugin(): Promise<GrpcPluginServer> {
  const child = spawn(builtGrpcPlugin(), ['-proto', PROTO, '-listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the gRPC plugin server exited (${code}): ${errors}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /listening (\S+)\n/.exec(out);
      if (!listening) return;
      resolve({
        address: `tcp://${listening[1]}`,
        stop: () =>
          new Promise((stopped) => {
            running.delete(child);
            if (child.exitCode !== null) return stopped();
            child.removeAllListeners('exit');
            child.once('exit', () => stopped());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}
