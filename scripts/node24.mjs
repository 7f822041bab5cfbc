// The Node bootstrap: runs a command under a Node that can run this project's TypeScript directly (type stripping
// is on by default from Node 22.18; we target Node 24 LTS). Where the machine's own node is new enough, the command
// runs as is. Otherwise the Node pinned in .node-version is fetched ONCE from the npm registry package
// `node-<platform>-<arch>` (through the machine's own npm, so its registry and CA settings apply) into a cache
// outside the clone, and the command runs with that Node first on PATH, so every `node`, `npm` and `npx` it
// starts is Node 24 too.
//
// Plain JavaScript on purpose: this file must run on Node 20, before any TypeScript can.
//
//   node scripts/node24.mjs <command> [args...]     run a command under Node 24
//   import { nodeBinDir } from './node24.mjs'       the directory holding a suitable node (bin/gw uses this)
//
// Environment: GW_CACHE_DIR (default ${XDG_CACHE_HOME:-~/.cache}/gw) is where Node is kept.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The first Node version that strips TypeScript types without a flag. */
const MINIMUM = { major: 22, minor: 18 };

/** @param {string} version a Node version such as 20.20.2 */
export function currentNodeIsEnough(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > MINIMUM.major || (major === MINIMUM.major && minor >= MINIMUM.minor);
}

export function cacheRoot() {
  return process.env.GW_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'gw');
}

/** The directory holding the node to use: null when the running node is enough, else the cached Node 24. */
export function nodeBinDir() {
  if (currentNodeIsEnough()) return null;
  const version = readFileSync(join(repo, '.node-version'), 'utf8').trim();
  const pkg = `node-${process.platform}-${process.arch}`;
  const home = join(cacheRoot(), 'node', `${pkg}-${version}`);
  const bin = join(home, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;

  process.stderr.write(`node ${process.versions.node} is older than ${MINIMUM.major}.${MINIMUM.minor}: fetching Node ${version} (${pkg} from the npm registry) into ${home} once ...\n`);
  mkdirSync(dirname(home), { recursive: true });
  // Unpack beside the final place and rename into it: concurrent bootstraps never see a half-written Node.
  const staging = mkdtempSync(`${home}.partial-`);
  try {
    const tarball = execFileSync('npm', ['pack', `${pkg}@${version}`, '--silent', '--pack-destination', staging], {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
    }).trim().split('\n').pop() ?? '';
    execFileSync('tar', ['-xzf', join(staging, tarball), '-C', staging, 'package/bin', 'package/LICENSE'], { stdio: 'inherit' });
    try {
      renameSync(join(staging, 'package'), home);
    } catch (error) {
      if (!existsSync(join(bin, 'node'))) throw error; // another bootstrap won the race: use its copy
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return bin;
}

/** Environment with the chosen node first on PATH. */
export function nodeEnv(env = process.env) {
  const bin = nodeBinDir();
  return bin ? { ...env, PATH: `${bin}:${env.PATH ?? ''}` } : env;
}

/**
 * Runs argv with stdio inherited; forwards SIGINT/SIGTERM/SIGHUP; exits with the child's code.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 */
export function runForwardingSignals(argv, env) {
  const [command = '', ...args] = argv;
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => {
    process.stderr.write(`${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  if (argv.length === 0) {
    process.stderr.write('usage: node scripts/node24.mjs <command> [args...]\n');
    process.exit(2);
  }
  runForwardingSignals(argv, nodeEnv());
}
