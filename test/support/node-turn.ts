// One node suite at a time on a machine: vitest runs test files in parallel, and only one node may run here
// (src/up/node/node-lock.ts), whose host snapshot must not see another suite's node. A suite takes the turn (a
// file created exclusively in the cache, naming its pid) before its "before" snapshot and gives it back after its
// node is stopped; a turn whose holder died is taken over. Waiting is polling, bounded.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cacheRoot } from '../../src/up/paths.ts';

const turnFile = (): string => join(cacheRoot(), 'node-suite.turn');

function holder(): number | null {
  try {
    const pid = Number(readFileSync(turnFile(), 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? Number(readFileSync(turnFile(), 'utf8')) : null;
  }
}

/** True while a live node suite holds the turn (its node, if any, is a test's, to be waited for, not skipped). */
export function nodeTurnHeld(): boolean {
  return holder() !== null;
}

/** Waits (up to timeoutMs, default 540 s) for the turn; resolves with its release. */
export async function takeNodeTurn(log: (line: string) => void = () => {}, timeoutMs = 540_000): Promise<() => void> {
  mkdirSync(cacheRoot(), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let said = false;
  for (;;) {
    try {
      const fd = openSync(turnFile(), 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        if (holder() === process.pid) rmSync(turnFile(), { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = holder();
    if (pid === null) {
      rmSync(turnFile(), { force: true }); // its holder died
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another node suite (pid ${pid}) held the machine's node for over ${timeoutMs / 1000} s`);
    if (!said) log(`waiting for the node suite of pid ${pid} to finish (one node per machine)`);
    said = true;
    await sleep(1_000);
  }
}
