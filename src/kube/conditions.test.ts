import { describe, expect, it } from 'vitest';
import { setCondition } from './conditions.ts';

describe('setCondition', () => {
  const t1 = new Date('2026-01-01T00:00:00Z');
  const t2 = new Date('2026-01-01T00:01:00Z');

  it('adds a condition with the time of its first state', () => {
    expect(setCondition(undefined, { type: 'Ready', status: 'True', reason: 'Synced', message: 'ok', observedGeneration: 1 }, t1)).toEqual([
      { type: 'Ready', status: 'True', reason: 'Synced', message: 'ok', observedGeneration: 1, lastTransitionTime: t1.toISOString() },
    ]);
  });

  it('keeps lastTransitionTime while the status stays, and moves it when the status flips', () => {
    const first = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'Unavailable', message: 'down' }, t1);
    const same = setCondition(first, { type: 'Ready', status: 'False', reason: 'Unavailable', message: 'still down', observedGeneration: 2 }, t2);
    expect(same[0]).toMatchObject({ message: 'still down', observedGeneration: 2, lastTransitionTime: t1.toISOString() });
    const flipped = setCondition(same, { type: 'Ready', status: 'True', reason: 'Synced', message: 'ok' }, t2);
    expect(flipped[0]).toMatchObject({ status: 'True', lastTransitionTime: t2.toISOString() });
  });

  it('leaves conditions of other types alone', () => {
    const both = setCondition(
      setCondition(undefined, { type: 'A', status: 'True', reason: 'R', message: '' }, t1),
      { type: 'B', status: 'False', reason: 'R', message: '' },
      t2,
    );
    expect(both.map((c) => c.type)).toEqual(['A', 'B']);
  });
});
