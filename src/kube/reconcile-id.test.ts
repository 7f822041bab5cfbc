// One id per reconcile: the controller draws a UUID for each run; its own lines, every line the reconciler logs
// through a logger with reconcileLogMixin, and currentReconcileId() inside the run all name it, exactly once per
// line; nothing outside a reconcile does.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, TerminalError } from './controller.ts';
import { currentReconcileId, reconcileLogMixin } from './reconcile-id.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A logger like the operator's (mixin on) whose lines, raw and parsed, the test reads. */
function capturedLogger() {
  const raw: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => void (raw.push(chunk.toString()), done()) });
  const log = pino({ level: 'debug', mixin: reconcileLogMixin }, stream);
  return { log, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const stopping: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stopping.splice(0)) await stop();
});

function run(controller: Controller) {
  const stop = new AbortController();
  const running = controller.run(stop.signal);
  stopping.push(async () => {
    stop.abort();
    await running;
  });
}

describe('reconcile ids', () => {
  it("gives each reconcile its own UUID, seen by the reconciler, its log lines and the controller's lines about it", async () => {
    const { log, lines } = capturedLogger();
    const seen: (string | undefined)[] = [];
    const controller = new Controller(
      {
        reconcile: async (key) => {
          await Promise.resolve(); // across an await too
          seen.push(currentReconcileId());
          log.info({ key }, 'reconciler line');
          if (key === 'ns/bad') throw new TerminalError('bad input');
        },
      },
      { name: 'test', log },
    );
    run(controller);
    controller.enqueue('ns/a');
    controller.enqueue('ns/bad');
    await vi.waitFor(() => expect(lines().filter((line) => line.msg !== 'reconciler line')).toHaveLength(2));

    expect(seen).toHaveLength(2);
    for (const id of seen) expect(id).toMatch(UUID);
    expect(seen[0]).not.toBe(seen[1]);
    const byKey = (key: string) => lines().filter((line) => line.key === key);
    expect(byKey('ns/a').map((line) => [line.msg, line.reconcileID])).toEqual([
      ['reconciler line', seen[0]],
      ['reconcile done', seen[0]],
    ]);
    expect(byKey('ns/bad').map((line) => [line.msg, line.reconcileID])).toEqual([
      ['reconciler line', seen[1]],
      ['reconcile failed for good: waiting for a change', seen[1]],
    ]);
  });

  it("writes the id once on the controller's own lines (child binding and mixin do not both add it)", async () => {
    const { log, raw } = capturedLogger();
    const controller = new Controller({ reconcile: async () => undefined }, { name: 'test', log });
    run(controller);
    controller.enqueue('ns/a');
    await vi.waitFor(() => expect(raw).toHaveLength(1));
    expect(raw[0]!.match(/"reconcileID"/g)).toHaveLength(1);
  });

  it('adds nothing outside a reconcile', () => {
    const { log, lines } = capturedLogger();
    log.info('outside');
    expect(currentReconcileId()).toBeUndefined();
    expect(lines()[0]).not.toHaveProperty('reconcileID');
  });
});
