// The journal's counter updates (one per limited request): batched, only the latest value of each counter written
// per batch, in an order that replays to the state the store holds in memory.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../test/support/wait.ts';
import { Journal } from './journal.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function openJournal(): { journal: Journal; lines: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-journal-'));
  dirs.push(dir);
  const journal = new Journal(dir, () => []);
  journal.open();
  return { journal, lines: () => readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean) };
}
const count = (used: number) => ({ t: 'quota', id: 'k', v: { used, renewsAt: 0 } });

describe('Journal.append (counter updates)', () => {
  it('writes a counter updated many times before its batch leaves once, with its latest value', async () => {
    const { journal, lines } = openJournal();
    for (let used = 1; used <= 1000; used++) journal.append(count(used));
    journal.append({ t: 'quota', id: 'other', v: { used: 7, renewsAt: 0 } });
    await waitUntil(
      () => `the batch written; found ${JSON.stringify(lines())}`,
      () => lines().some((line) => line.includes('"other"')),
    );
    expect(lines()).toEqual(['{"t":"quota","id":"k","v":{"used":1000,"renewsAt":0}}', '{"t":"quota","id":"other","v":{"used":7,"renewsAt":0}}']);
    journal.close();
  });

  it('writes a management write queued after an update of the same counter after it (a reset replays as a reset)', async () => {
    const { journal, lines } = openJournal();
    journal.append(count(5));
    await journal.appendDurable({ t: 'quota', id: 'k' }, () => undefined);
    journal.close();
    expect(lines()).toEqual(['{"t":"quota","id":"k","v":{"used":5,"renewsAt":0}}', '{"t":"quota","id":"k"}']);
  });

  it('writes what is still queued on close', () => {
    const { journal, lines } = openJournal();
    journal.append(count(1));
    journal.append(count(2));
    journal.close();
    expect(lines()).toEqual(['{"t":"quota","id":"k","v":{"used":2,"renewsAt":0}}']);
  });
});
