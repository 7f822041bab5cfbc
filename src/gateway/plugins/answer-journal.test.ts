// The answer journal (answer-journal.ts): answers written by a worker read back in order, every kind of answer and
// non-ASCII text intact, an answer that does not fit refused without changing what the journal holds, and a cleared
// journal read as empty.
import { describe, expect, it } from 'vitest';
import { AnswerJournal, JOURNAL_BYTES, readJournal } from './answer-journal.ts';
import type { AnswerText, WorkerAnswer } from './worker-protocol.ts';

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
      { id: 12, type: 'withdrawn' },
    ];
    const texts: AnswerText[] = ['R{"Body":"héllo ✓"}', 'U', 'R', 'Erefused', 'Ttoo slow', 'W'];
    for (const [i, answer] of answers.entries()) expect(journal.add(answer.id, texts[i]!)).toBe(true);
    expect(readJournal(buffer)).toEqual(answers);
  });

  it('refuses an answer that does not fit and keeps the ones it holds', () => {
    const buffer = new SharedArrayBuffer(64);
    const journal = new AnswerJournal(buffer);
    expect(journal.add(1, 'Rsmall')).toBe(true);
    expect(journal.add(2, `R${'x'.repeat(60)}`)).toBe(false);
    // Fits by characters, not by bytes (three bytes each in UTF-8).
    expect(journal.add(3, `R${'✓'.repeat(20)}`)).toBe(false);
    expect(readJournal(buffer)).toEqual([{ id: 1, type: 'result', value: 'small' }]);
  });

  it('reads as empty once cleared, and is written from its start again', () => {
    const buffer = new SharedArrayBuffer(64);
    const journal = new AnswerJournal(buffer);
    journal.add(1, `R${'x'.repeat(30)}`);
    journal.clear();
    expect(readJournal(buffer)).toEqual([]);
    expect(journal.add(2, `R${'y'.repeat(30)}`)).toBe(true);
    expect(readJournal(buffer)).toEqual([{ id: 2, type: 'result', value: 'y'.repeat(30) }]);
  });
});
