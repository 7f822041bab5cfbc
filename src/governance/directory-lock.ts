// One process at a time on a PGlite data directory. PGlite is PostgreSQL inside this process, without the server's
// postmaster.pid guard: a second process opening the same directory (the hub running while `gw governance token
// create` writes) would corrupt it. So both take `<dir>.lock`, created exclusively and holding the owner's pid; a
// lock whose process is gone (SIGKILL, crash) is stale and taken over. Only processes on the same host are seen.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class DirectoryLockedError extends Error {
  readonly pid: number;
  constructor(dir: string, pid: number) {
    super(`the PGlite database ${dir} is in use by process ${pid} (a running gw governance?)`);
    this.name = 'DirectoryLockedError';
    this.pid = pid;
  }
}

export interface DirectoryLock {
  release(): void;
}

export function lockDirectory(dir: string): DirectoryLock {
  const file = `${dir}.lock`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return { release: () => releaseIfOurs(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = ownerOf(file);
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) throw new DirectoryLockedError(dir, owner);
    rmSync(file, { force: true }); // stale: its process is gone
  }
  throw new Error(`cannot take the lock ${file}`);
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
