// The change feed's long-poll contract: at once when past, on the next bump otherwise, on timeout with the same
// version, at once for another epoch, bounded waiters, parameters checked, no waiter left behind, and none held
// once the service shuts down.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ChangeFeed, isCommittedWrite } from './change-feed.ts';
import { HttpError } from './errors.ts';

const open = () => new EventEmitter();

describe('ChangeFeed', () => {
  it('answers at once when the version is already past `since`', async () => {
    const feed = new ChangeFeed();
    feed.bump();
    expect(await feed.poll({ since: '0', epoch: feed.epoch }, open())).toEqual({ version: 1, epoch: feed.epoch });
  });

  it('holds a poll until the next bump, then answers every waiter with the new version', async () => {
    const feed = new ChangeFeed();
    const polls = [feed.poll({ since: '0', epoch: feed.epoch }, open()), feed.poll({ since: '0' }, open())];
    expect(feed.waiting).toBe(2);
    feed.bump();
    expect(await Promise.all(polls)).toEqual([
      { version: 1, epoch: feed.epoch },
      { version: 1, epoch: feed.epoch },
    ]);
    expect(feed.waiting).toBe(0);
  });

  it('answers the unchanged version on timeout, and timeout=0 at once', async () => {
    const feed = new ChangeFeed();
    expect(await feed.wait({ since: 0, epoch: undefined, timeoutMs: 20 }, new AbortController().signal)).toEqual({ version: 0, epoch: feed.epoch });
    expect(await feed.poll({ since: '0', timeout: '0' }, open())).toEqual({ version: 0, epoch: feed.epoch });
    expect(feed.waiting).toBe(0);
  });

  it('answers at once when the caller knew another epoch (the process restarted: its counter started again)', async () => {
    const feed = new ChangeFeed();
    expect(await feed.poll({ since: '7', epoch: 'an-earlier-process' }, open())).toEqual({ version: 0, epoch: feed.epoch });
  });

  it('forgets a waiter whose connection closed', async () => {
    const feed = new ChangeFeed();
    const connection = open();
    const poll = feed.poll({ since: '0' }, connection);
    expect(feed.waiting).toBe(1);
    connection.emit('close');
    await poll;
    expect(feed.waiting).toBe(0);
  });

  it('answers every waiter with the unchanged version on close, and every later poll at once (a shutdown is not held)', async () => {
    const feed = new ChangeFeed();
    const waiting = feed.poll({ since: '0', epoch: feed.epoch, timeout: '60' }, open());
    expect(feed.waiting).toBe(1);
    feed.close();
    expect(await waiting).toEqual({ version: 0, epoch: feed.epoch });
    expect(feed.waiting).toBe(0);
    expect(await feed.poll({ since: '0', epoch: feed.epoch, timeout: '60' }, open())).toEqual({ version: 0, epoch: feed.epoch });
    expect(feed.waiting).toBe(0);
  });

  it('refuses a poll beyond maxWaiters with 503, and bad parameters with 400 naming them', async () => {
    const feed = new ChangeFeed({ maxWaiters: 1 });
    const first = feed.poll({ since: '0' }, open());
    await expect(feed.poll({ since: '0' }, open())).rejects.toMatchObject({ status: 503, code: 'unavailable' });
    feed.bump();
    await first;
    for (const [query, field] of [
      [{ since: '-1' }, 'since'],
      [{ since: 'x' }, 'since'],
      [{ since: '1', timeout: '61' }, 'timeout'],
      [{ since: '1', epoch: 'e'.repeat(65) }, 'epoch'],
    ] as const) {
      const error = await feed.poll(query, open()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 400 });
      expect((error as Error).message.startsWith(`${field}:`)).toBe(true);
    }
  });
});

describe('isCommittedWrite', () => {
  const watched = ['/gw/apis', '/gw/policies'];
  it('counts successful writes under the watched routes only', () => {
    expect(isCommittedWrite('DELETE', '/gw/apis/:id', 200, watched)).toBe(true);
    expect(isCommittedWrite('POST', '/gw/policies/:id', 200, watched)).toBe(true);
    expect(isCommittedWrite('GET', '/gw/apis', 200, watched)).toBe(false);
    expect(isCommittedWrite('POST', '/gw/apis', 400, watched)).toBe(false);
    expect(isCommittedWrite('POST', '/gw/keys/create', 200, watched)).toBe(false);
    expect(isCommittedWrite('POST', '/gw/apisx', 200, watched)).toBe(false);
    expect(isCommittedWrite('POST', undefined, 200, watched)).toBe(false);
  });
});
