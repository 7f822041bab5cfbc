// Waiting on a condition in tests: check it every 50 ms until it holds, failing with `what` once the deadline
// passes. For behaviour that happens "eventually" (a port closes, a connection is served again); never a timing
// assertion, the deadline only bounds a failure.
export async function pollUntil(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}
