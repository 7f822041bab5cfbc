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
//
// No child outlives the bootstrap. Node cannot exec (replace itself, keeping its pid) before Node 23, so the
// command runs as a child and the bootstrap forwards every signal it can catch (below) and exits as the child
// did. A SIGKILL cannot be caught or forwarded: for that, a child that cooperates (bin/gw, through
// exitWithParent) gets a lifeline, one end of a socket pair on fd 3 whose other end only the bootstrap holds.
// When the bootstrap dies, however it dies, the kernel closes that end and the child sees end-of-file at once and
// shuts down as on SIGTERM. Chosen over polling process.ppid: no interval, no delay, and no reliance on which
// process adopts an orphan (a subreaper, not always pid 1). Commands that do not cooperate (npm, vitest) get the
// signals only.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { setTimeout } from 'node:timers';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isatty } from 'node:tty';

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

  process.stderr.write(
    `node ${process.versions.node} is older than ${MINIMUM.major}.${MINIMUM.minor}: fetching Node ${version} (${pkg} from the npm registry) into ${home} once ...\n`,
  );
  mkdirSync(dirname(home), { recursive: true });
  // Unpack beside the final place and rename into it: concurrent bootstraps never see a half-written Node.
  const staging = mkdtempSync(`${home}.partial-`);
  try {
    const tarball =
      execFileSync('npm', ['pack', `${pkg}@${version}`, '--silent', '--pack-destination', staging], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      })
        .trim()
        .split('\n')
        .pop() ?? '';
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

/** Every signal that asks a process to stop or tells it something, and that Node lets us catch. */
const FORWARDED = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGWINCH']);

/** The environment variable naming the child's lifeline file descriptor. */
const LIFELINE_ENV = 'GW_BOOTSTRAP_LIFELINE_FD';

/**
 * Runs argv with stdio inherited; forwards every catchable signal (but those a terminal sends the child itself);
 * exits as the child did (its code, or the same signal). With `lifeline`, the child gets fd 3 for exitWithParent.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @param {{ lifeline?: boolean }} [options]
 */
export function runForwardingSignals(argv, env, options = {}) {
  const [command = '', ...args] = argv;
  const child = options.lifeline
    ? spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit', 'pipe'], env: { ...env, [LIFELINE_ENV]: '3' } })
    : spawn(command, args, { stdio: 'inherit', env });
  // From a terminal, Ctrl-C, Ctrl-\ and a resize signal the whole foreground process group, the child included:
  // forwarding those too would deliver them twice, and a second SIGINT means "force" to most commands (gw up was
  // killed half-way through its clean-up). So with a terminal on stdin those three are left to the terminal.
  const fromTerminal = new Set(isatty(0) ? ['SIGINT', 'SIGQUIT', 'SIGWINCH'] : []);
  /** @param {NodeJS.Signals} signal */
  const forward = (signal) => {
    if (!fromTerminal.has(signal)) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Die of the same signal, so our parent sees what happened: without our handler it does its default.
      for (const caught of FORWARDED) process.off(caught, forward);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

/**
 * In a child started with a lifeline: shut down (SIGTERM to ourselves, so the command's own graceful stop runs)
 * when the bootstrap that started us is gone. A no-op otherwise. Never keeps the process alive by itself.
 */
export function exitWithParent() {
  const fd = Number(process.env[LIFELINE_ENV]);
  delete process.env[LIFELINE_ENV]; // our own children have no such descriptor
  if (!Number.isInteger(fd) || fd < 3) return;
  const lifeline = new Socket({ fd, readable: true, writable: false });
  lifeline.on('error', () => undefined); // a reset is a close like any other
  lifeline.once('close', () => {
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    process.kill(process.pid, 'SIGTERM');
  });
  lifeline.resume();
  lifeline.unref();
}

/**
 * Keeps Node's "WASI is an experimental feature" warning off stderr (the gateway's template engine runs on node:wasi,
 * so every `gw gateway`, even `--help`, printed it); every other warning is printed as before, by Node's own printer.
 */
export function quietWasiWarning() {
  const printers = process.listeners('warning');
  for (const printer of printers) process.off('warning', printer);
  process.on('warning', (warning) => {
    if (warning.name === 'ExperimentalWarning' && warning.message.startsWith('WASI ')) return;
    for (const printer of printers) printer.call(process, warning);
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
