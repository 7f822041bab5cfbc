// The journal's contract for management writes: the caller's commit runs only once its record is written and
// fsynced, and never when the record cannot be serialized or the write fails.
import { closeSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from './journal.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-journal-'));
  dirs.push(dir);
  return dir;
}

describe('Journal.appendDurable', () => {
  it('commits once the record is durable, in append order', async () => {
    const journal = new Journal(freshDir(), () => []);
    journal.open();
    const committed: string[] = [];
    const first = journal.appendDurable({ t: 'api', id: 'a' }, () => committed.push('a'));
    const second = journal.appendDurable({ t: 'api', id: 'b' }, () => committed.push('b'));
    expect(committed).toEqual([]);
    await Promise.all([first, second]);
    expect(committed).toEqual(['a', 'b']);
    journal.close();
  });

  it('throws without queuing or committing when the record cannot be serialized', () => {
    const journal = new Journal(freshDir(), () => []);
    journal.open();
    let committed = false;
    expect(() => journal.appendDurable({ t: 'api', id: 'x', v: { n: 1n } }, () => (committed = true))).toThrow(TypeError);
    journal.close();
    expect(committed).toBe(false);
  });

  it('queues nothing of a group when one of its records cannot be serialized', async () => {
    const dir = freshDir();
    const journal = new Journal(dir, () => []);
    journal.open();
    let committed = false;
    expect(() =>
      journal.appendDurable(
        [
          { t: 'key', id: 'k', v: {} },
          { t: 'quota', id: 'k', v: { n: 1n } },
        ],
        () => (committed = true),
      ),
    ).toThrow(TypeError);
    await journal.appendDurable({ t: 'api', id: 'after' }, () => undefined);
    journal.close();
    expect(committed).toBe(false);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toBe('{"t":"api","id":"after"}\n');
  });

  it('rejects without committing when the write fails', async () => {
    const dir = freshDir();
    const journal = new Journal(dir, () => []);
    journal.open();
    // Pull the file out from under the journal: its descriptor is closed, so the next write fails with EBADF.
    const path = join(dir, 'journal.jsonl');
    const fd = readdirSync('/proc/self/fd')
      .map(Number)
      .find((n) => readlinkOrNull(`/proc/self/fd/${n}`) === path);
    expect(fd).toBeDefined();
    closeSync(fd!);
    let committed = false;
    await expect(journal.appendDurable({ t: 'api', id: 'x', v: { name: 'x' } }, () => (committed = true))).rejects.toThrow(/EBADF/);
    expect(committed).toBe(false);
  });
});

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
