// LatestAnswer: of the questions a view asked, only the latest one's answer (or failure) is applied, whatever order
// they come back in.
import { describe, expect, it } from 'vitest';
import { LatestAnswer } from './latest-answer.ts';

function pending(): { promise: Promise<string>; resolve: (value: string) => void; reject: (error: Error) => void } {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Two questions asked one after the other, still unanswered; what gets applied lands in `applied`. */
function twoQuestions() {
  const latest = new LatestAnswer();
  const applied: string[] = [];
  const [earlier, later] = [pending(), pending()];
  for (const question of [earlier, later])
    latest.ask(
      question.promise,
      (value) => applied.push(value),
      (error) => applied.push(`failed: ${(error as Error).message}`),
    );
  const settled = async (): Promise<void> => {
    await Promise.allSettled([earlier.promise, later.promise]);
    await Promise.resolve();
  };
  return { applied, earlier, later, settled };
}

describe('LatestAnswer', () => {
  it('drops an earlier question answered after a later one (page 1 answering after the search)', async () => {
    const { applied, earlier, later, settled } = twoQuestions();
    later.resolve('search result');
    await later.promise;
    earlier.resolve('every key');
    await settled();
    expect(applied).toEqual(['search result']);
  });

  it("drops an earlier question's failure too, and applies the latest one's", async () => {
    const { applied, earlier, later, settled } = twoQuestions();
    earlier.reject(new Error('earlier'));
    later.reject(new Error('later'));
    await settled();
    expect(applied).toEqual(['failed: later']);
  });

  it('applies every answer of questions asked one after another', async () => {
    const latest = new LatestAnswer();
    const applied: number[] = [];
    for (const value of [1, 2, 3]) {
      const answer = Promise.resolve(value);
      latest.ask(
        answer,
        (v) => applied.push(v),
        () => undefined,
      );
      await answer;
      await Promise.resolve();
    }
    expect(applied).toEqual([1, 2, 3]);
  });
});
