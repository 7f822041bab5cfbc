// When a long-running gw process should stop: on SIGINT or SIGTERM, or — for a process started by another gw
// process (`gw up`, the test harness: src/up/child.ts) — when that parent is gone. The parent names itself in
// GW_PARENT_PID and starts its children in their own process group, so a Ctrl-C at the terminal reaches only the
// parent, which then stops each child once (with SIGTERM) after what must happen first (deleting the samples while
// the operator still runs); and a parent killed with SIGKILL still leaves nothing running: its children see their
// parent change and shut down as on SIGTERM. A second signal after the first is not handled here: it ends the
// process at once (the usual "press Ctrl-C again to force").
export const PARENT_PID_ENV = 'GW_PARENT_PID';

/** How often a child checks that its parent still runs. */
const PARENT_CHECK_MS = 500;

/** Resolves with what asked for the stop: the signal's name, or `parent gone`. */
export function stopRequested(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolveStop) => {
    const parent = Number(env[PARENT_PID_ENV]);
    delete env[PARENT_PID_ENV]; // not inherited by anything this process starts
    let watch: NodeJS.Timeout | undefined;
    const handlers = new Map<NodeJS.Signals, () => void>();
    const done = (reason: string): void => {
      if (watch) clearInterval(watch);
      for (const [signal, handler] of handlers) process.removeListener(signal, handler);
      resolveStop(reason);
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const handler = (): void => done(signal);
      handlers.set(signal, handler);
      process.once(signal, handler);
    }
    if (Number.isInteger(parent) && parent > 1) {
      watch = setInterval(() => {
        if (process.ppid !== parent) done('parent gone');
      }, PARENT_CHECK_MS);
      watch.unref();
    }
  });
}
