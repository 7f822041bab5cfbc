import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryLockedError, lockDirectory } from './directory-lock.ts';

const OPTIONS = { what: 'the test directory', hint: 'a test' };
const freshDir = (): string => join(mkdtempSync(join(tmpdir(), 'gw-lock-')), 'data');

describe('lockDirectory', () => {
  it('holds the lock with our pid and releases it', () => {
    const dir = freshDir();
    const lock = lockDirectory(dir, OPTIONS);
    expect(readFileSync(`${dir}.lock`, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('refuses a directory a live process holds, naming it', () => {
    const dir = freshDir();
    const file = join(dir, 'owner.lock');
    lockDirectory(dir, { ...OPTIONS, file }).release();
    writeFileSync(file, `${process.ppid}\n`); // our parent: alive while this test runs
    expect(() => lockDirectory(dir, { ...OPTIONS, file })).toThrow(DirectoryLockedError);
    expect(() => lockDirectory(dir, { ...OPTIONS, file })).toThrow(`the test directory ${dir} is in use by process ${process.ppid} (a test)`);
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over the lock of a process that is gone (SIGKILL, crash)', () => {
    const dir = freshDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    writeFileSync(`${dir}.lock`, `${dead}\n`);
    const lock = lockDirectory(dir, OPTIONS);
    expect(readFileSync(`${dir}.lock`, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });
});
