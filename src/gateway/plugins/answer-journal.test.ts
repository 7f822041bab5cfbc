// The answer journal (answer-journal.ts): answers written by a worker read back in order, every kind of answer and
// non-ASCII text intact, an answer that does not fit refused without changing what the journal holds, and a cleared
// journal read as empty.
import { describe, expect, it } from 'vitest';
import { AnswerJournal, JOURNAL_BYTES, readJournal } from './answer-journal.ts';
import type { WorkerAnswer } from './worker-protocol.ts';

describe('answer journal', () => {
  it('reads back the answers added, in order, each kind intact', () => {
    const buffer = new SharedArrayBuffer(JOURNAL_BYTES);
    const journal = new AnswerJournal(buffer);
    const answers: WorkerAnswer[] = [
      { id: 7, type: 'result', value: '{"Body":"héllo ✓"}' },
      { id: 8, type: 'result', value: undefined },
      { id: 9, type: 'result', value: '' },
      { id: 10, type: 'error', message: 'refused', timedOut: false },
      { id: 11, type: 'error', message: 'too slow', timedOut: true },
    ];
    for (const answer of answers) expect(journal.add(answer)).toBe(true);
    expect(readJournal(buffer)).toEqual(answers);
  });

  it('refuses an answer that does not fit and keeps the ones it holds', () => {
    const buffer = new SharedArrayBuffer(64);
    const journal = new AnswerJournal(buffer);
    expect(journal.add({ id: 1, type: 'result', value: 'small' })).toBe(true);
    expect(journal.add({ id: 2, type: 'result', value: 'x'.repeat(60) })).toBe(false);
    // Fits by characters, not by bytes (three bytes each in UTF-8).
    expect(journal.add({ id: 3, type: 'result', value: '✓'.repeat(20) })).toBe(false);
    expect(readJournal(buffer)).toEqual([{ id: 1, type: 'result', value: 'small' }]);
  });

  it('reads as empty once cleared, and is written from its start again', () => {
    const buffer = new SharedArrayBuffer(64);
    const journal = new AnswerJournal(buffer);
    journal.add({ id: 1, type: 'result', value: 'x'.repeat(30) });
    journal.clear();
    expect(readJournal(buffer)).toEqual([]);
    expect(journal.add({ id: 2, type: 'result', value: 'y'.repeat(30) })).toBe(true);
    expect(readJournal(buffer)).toEqual([{ id: 2, type: 'result', value: 'y'.repeat(30) }]);
  });
});
