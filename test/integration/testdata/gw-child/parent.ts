// A parent that starts `gw gateway` as `gw up` does (src/up/child.ts) and prints the child's pid. A SIGINT is only
// reported (gw up first deletes its samples while its children still serve); a SIGUSR2 stops the child (SIGTERM,
// as gw up does) and prints how it ended. Used by test/integration/gw-child.test.ts.
import { startGwChild } from '../../../../src/up/child.ts';

const [configFile, readyUrl] = process.argv.slice(2) as [string, string];
const child = await startGwChild({ args: ['gateway', '--config', configFile], output: { onOutput: () => undefined }, readyUrl });
process.on('SIGINT', () => process.stdout.write('parent got SIGINT\n'));
process.once('SIGUSR2', () => {
  void child.stop().then((code) => {
    process.stdout.write(`child exited ${code}\n`);
    process.exit(0);
  });
});
process.stdout.write(`child ${child.pid}\n`);
setInterval(() => undefined, 60_000);
