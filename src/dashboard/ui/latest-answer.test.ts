// LatestAnswer: of the questions a view asked, only the latest one's answer (or failure) is applied, whatever order
// they come back in.
import { describe, expect, it } from 'vitest';
import { LatestAnswer } from './latest-answer.ts';

function pending<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('LatestAnswer', () => {
  it('drops an earlier question answered after a later one (page 1 answering after the search)', async () => {
    const latest = new LatestAnswer();
    const shown: string[] = [];
    const firstPage = pending<string>();
    const search = pending<string>();
    latest.ask(
      firstPage.promise,
      (value) => shown.push(value),
      () => shown.push('failed'),
    );
    latest.ask(
      search.promise,
      (value) => shown.push(value),
      () => shown.push('failed'),
    );
    search.resolve('search result');
    await search.promise;
    firstPage.resolve('every key');
    await firstPage.promise;
    await Promise.resolve();
    expect(shown).toEqual(['search result']);
  });

  it("drops an earlier question's failure too, and applies the latest one's", async () => {
    const latest = new LatestAnswer();
    const failures: unknown[] = [];
    const earlier = pending<string>();
    const later = pending<string>();
    latest.ask(
      earlier.promise,
      () => undefined,
      (error) => failures.push(error),
    );
    latest.ask(
      later.promise,
      () => undefined,
      (error) => failures.push(error),
    );
    earlier.reject(new Error('earlier'));
    later.reject(new Error('later'));
    await Promise.allSettled([earlier.promise, later.promise]);
    await Promise.resolve();
    expect(failures.map((error) => (error as Error).message)).toEqual(['later']);
  });

  it('applies every answer of questions asked one after another', async () => {
    const latest = new LatestAnswer();
    const shown: number[] = [];
    for (const value of [1, 2, 3]) {
      const answer = Promise.resolve(value);
      latest.ask(
        answer,
        (v) => shown.push(v),
        () => undefined,
      );
      await answer;
      await Promise.resolve();
    }
    expect(shown).toEqual([1, 2, 3]);
  });
});
