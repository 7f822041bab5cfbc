// One process at a time on a data directory: a PGlite database (PostgreSQL inside this process, without the
// server's postmaster.pid guard: a second process on the same directory would corrupt it) or the gateway's
// embedded store (two gateways would both append to one journal). The owner holds a lock file containing its pid;
// a second process is refused with DirectoryLockedError naming the owner. A lock whose process is gone (SIGKILL,
// crash, power loss) is stale and taken over, so a crash never needs a hand to clean up. The same process may take
// its own lock again (a store reopened in one process). Only processes on the same host are seen: a directory on a
// network filesystem shared by two hosts is not protected.
//
// The lock file appears whole or not at all (written beside it, then hard-linked into place: link(2) fails when
// the name exists), so no reader ever sees it empty. A stale lock is renamed away before it is removed, and put
// back if what was renamed turns out to be a live owner's fresh lock (another process took over first).
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface DirectoryLockOptions {
  /** The lock file. Default `<dir>.lock`, beside the directory. */
  file?: string;
  /** What the directory is, in the error: "the PGlite database". */
  what: string;
  /** What to do about it, in the error: "a running gw governance?". */
  hint: string;
}

export class DirectoryLockedError extends Error {
  readonly code = 'DIRECTORY_LOCKED';
  readonly pid: number;
  constructor(dir: string, pid: number, options: DirectoryLockOptions) {
    super(`${options.what} ${dir} is in use by process ${pid} (${options.hint})`);
    this.name = 'DirectoryLockedError';
    this.pid = pid;
  }
}

export interface DirectoryLock {
  release(): void;
}

export function lockDirectory(dir: string, options: DirectoryLockOptions): DirectoryLock {
  const file = options.file ?? `${dir}.lock`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(file)) return { release: () => releaseIfOurs(file) };
    const owner = ownerOf(file);
    if (owner === process.pid) return { release: () => releaseIfOurs(file) };
    if (owner !== undefined && isAlive(owner)) throw new DirectoryLockedError(dir, owner, options);
    removeStale(file);
  }
  throw new Error(`cannot take the lock ${file}: other processes keep taking it over`);
}

/** Creates the lock file holding our pid; false when it exists. */
function create(file: string): boolean {
  const staging = `${file}.${process.pid}.tmp`;
  writeFileSync(staging, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(staging, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(staging, { force: true });
  }
}

/** Moves a stale lock out of the way; a live lock moved by mistake (a race with another taker) goes back. */
function removeStale(file: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else removed it
    throw error;
  }
  const owner = ownerOf(aside);
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    try {
      linkSync(aside, file);
    } catch {
      // a third process created the lock meanwhile: it is the owner now; ours to report on the next attempt
    }
  }
  rmSync(aside, { force: true });
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseIfOurs(file: string): void {
  if (ownerOf(file) === process.pid) rmSync(file, { force: true });
}
