import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { failingAsUnavailable, toStoreError } from './redis-errors.ts';
import { StoreUnavailableError } from './unavailable.ts';

function replyError(message: string): Error {
  const error = new Error(message);
  error.name = 'ReplyError';
  return error;
}

describe('Redis failures as store errors', () => {
  it('maps connection failures and passing server states to StoreUnavailableError (503 unavailable)', () => {
    for (const error of [
      new Error('Connection is closed.'),
      new Error('Command timed out'),
      replyError('LOADING Redis is loading the dataset in memory'),
      replyError("READONLY You can't write against a read only replica."),
      replyError('NOREPLICAS Not enough good replicas to write.'),
      Object.assign(replyError('EXECABORT Transaction discarded because of previous errors.'), {
        previousErrors: [replyError('NOREPLICAS Not enough good replicas to write.')],
      }),
    ]) {
      const mapped = toStoreError(error);
      expect(mapped).toBeInstanceOf(StoreUnavailableError);
      expect(mapped).toBeInstanceOf(HttpError);
      expect((mapped as HttpError).status).toBe(503);
      expect((mapped as Error).cause).toBe(error);
    }
  });

  it('leaves error replies that are our own defects as they are (500)', () => {
    const wrongType = replyError('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(toStoreError(wrongType)).toBe(wrongType);
    const aborted = Object.assign(replyError('EXECABORT Transaction discarded because of previous errors.'), { previousErrors: [wrongType] });
    expect(toStoreError(aborted)).toBe(aborted);
  });

  it('wraps every promise-returning method of a client, calling it on the client itself', async () => {
    const client = {
      name: 'real',
      get(this: { name: string }) {
        return Promise.resolve(this.name);
      },
      fail() {
        return Promise.reject(new Error('Connection is closed.'));
      },
      sync(this: { name: string }) {
        return this.name;
      },
    };
    const wrapped = failingAsUnavailable(client);
    expect(await wrapped.get()).toBe('real');
    expect(wrapped.sync()).toBe('real');
    await expect(wrapped.fail()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Reflect.get(wrapped, 'get')).toBe(Reflect.get(wrapped, 'get')); // one wrapper per method
  });
});
