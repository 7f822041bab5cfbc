// The reloader against a management client whose reload fails on demand: failures are retried with backoff until
// one succeeds, and state(ticket) tells the truth meanwhile (pending, failed with the error, then done); after each
// success the gateway's load problems are read (problemOf), an unreadable report meaning unknown.
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { ApiLoadProblem, ManagementClient } from '../../mgmt/client.ts';
import { MgmtError } from '../../mgmt/client.ts';
import { Reloader } from './reloader.ts';

/** A client whose reload() fails while `failing` is set; only reload is used by the reloader. */
function reloadingClient() {
  const state = { failing: false, reloads: 0, succeeded: 0 };
  const client = {
    url: 'http://gateway.test',
    reload: () => {
      state.reloads++;
      if (state.failing) return Promise.reject(new MgmtError('failed', 'gateway answered 500: reload broke'));
      state.succeeded++;
      return Promise.resolve();
    },
  } as unknown as ManagementClient;
  return { client, state };
}

const log = pino({ level: 'silent' });

describe('Reloader', () => {
  it('coalesces a burst of requests into one reload and reports the tickets done after it', async () => {
    const { client, state } = reloadingClient();
    const reloader = new Reloader(client, { debounceMs: 20 }, log);
    const tickets = [reloader.request(), reloader.request(), reloader.request()];
    expect(tickets.map((t) => reloader.state(t).state)).toEqual(['pending', 'pending', 'pending']);
    await vi.waitFor(() => expect(reloader.state(tickets[2]!).state).toBe('done'));
    expect(state.reloads).toBe(1);
    reloader.stop();
  });

  it('retries a failed reload with backoff until it succeeds; meanwhile the ticket is failed with the error', async () => {
    const { client, state } = reloadingClient();
    state.failing = true;
    const reloader = new Reloader(client, { debounceMs: 5, retry: { initialMs: 10, maxMs: 40 } }, log);
    const attempts: string[] = [];
    const ticket = reloader.request();
    const listen = () => reloader.afterNextAttempt(() => attempts.push(reloader.state(ticket).state));
    listen();
    await vi.waitFor(() => expect(attempts).toEqual(['failed']));
    expect(reloader.state(ticket)).toEqual({ state: 'failed', error: 'gateway answered 500: reload broke' });
    await vi.waitFor(() => expect(state.reloads).toBeGreaterThanOrEqual(3)); // retried without any new request
    expect(reloader.state(ticket).state).toBe('failed');
    listen();
    state.failing = false;
    await vi.waitFor(() => expect(attempts).toEqual(['failed', 'done']));
    expect(state.succeeded).toBe(1);
    const reloadsWhenDone = state.reloads;
    await reloader.settled();
    expect(state.reloads).toBe(reloadsWhenDone); // no retry once it succeeded
    reloader.stop();
  });

  it('a request made while a reload runs is not covered by it: one more reload follows', async () => {
    const { client, state } = reloadingClient();
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const reload = client.reload.bind(client);
    client.reload = async () => {
      if (state.reloads === 0) {
        state.reloads++;
        await first;
        state.succeeded++;
        return;
      }
      return reload();
    };
    const reloader = new Reloader(client, { debounceMs: 5 }, log);
    const before = reloader.request();
    await vi.waitFor(() => expect(state.reloads).toBe(1));
    const during = reloader.request();
    release();
    await vi.waitFor(() => expect(reloader.state(before).state).toBe('done'));
    await vi.waitFor(() => expect(reloader.state(during).state).toBe('done'));
    expect(state.succeeded).toBe(2);
    reloader.stop();
  });

  it('stops retrying once stopped', async () => {
    const { client, state } = reloadingClient();
    state.failing = true;
    const reloader = new Reloader(client, { debounceMs: 1, retry: { initialMs: 5, maxMs: 5 } }, log);
    const ticket = reloader.request();
    await vi.waitFor(() => expect(reloader.state(ticket).state).toBe('failed'));
    reloader.stop();
    await reloader.settled();
    expect(reloader.state(ticket).state).toBe('failed');
  });

  it('reads the load problems after each successful reload, before telling onLoaded listeners; a failed read means unknown', async () => {
    const { client } = reloadingClient();
    let problems: ApiLoadProblem[] = [{ id: 'b', reason: 'ListenPathConflict', message: 'listen path /x is already served by api a', conflictsWith: 'a' }];
    let readFails = false;
    client.loadProblems = () => (readFails ? Promise.reject(new MgmtError('not_found', 'no such route')) : Promise.resolve(problems));
    const reloader = new Reloader(client, { debounceMs: 1 }, log);
    expect(reloader.problemsRead).toBe(false);
    const seen: (string | undefined)[] = [];
    reloader.onLoaded(() => seen.push(reloader.problemOf('b')?.reason));
    const first = reloader.request();
    await vi.waitFor(() => expect(reloader.state(first).state).toBe('done'));
    expect(seen).toEqual(['ListenPathConflict']);
    expect(reloader.problemOf('b')?.conflictsWith).toBe('a');
    expect(reloader.problemOf('a')).toBeUndefined();
    expect(reloader.problemsRead).toBe(true);

    problems = [];
    const second = reloader.request();
    await vi.waitFor(() => expect(reloader.state(second).state).toBe('done'));
    expect(seen).toEqual(['ListenPathConflict', undefined]);

    problems = [{ id: 'b', reason: 'DefinitionNotServed', message: 'broken' }];
    readFails = true;
    const third = reloader.request();
    await vi.waitFor(() => expect(reloader.state(third).state).toBe('done')); // the reload itself worked
    expect(reloader.problemOf('b')).toBeUndefined();
    reloader.stop();
  });
});
