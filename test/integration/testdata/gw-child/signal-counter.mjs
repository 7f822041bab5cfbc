// Counts the SIGINTs it receives; on SIGUSR2 prints the count and exits. Prints its parent's pid when ready.
// Used by test/integration/bootstrap-signals.test.ts.
import { setInterval } from 'node:timers';
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  process.stdout.write(`SIGINT ${interrupts}\n`);
});
process.on('SIGUSR2', () => {
  process.stdout.write(`total ${interrupts}\n`);
  process.exit(0);
});
process.stdout.write(`ready ${process.ppid}\n`);
setInterval(() => undefined, 60_000);
