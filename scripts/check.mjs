// `npm run check`: the type check, the lint and the formatter's check (prettier --check) at the same time (they are independent and each is one busy core:
// on two cores the pair takes as long as the lint alone), each one's output printed whole when it ends, so the two
// never interleave. Exits non-zero when either fails. Plain JavaScript: it runs on whatever Node npm uses.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const steps = ['typecheck', 'lint', 'format:check'];

/** @param {string} script an npm script of package.json */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.once('error', (error) => resolve({ script, code: 1, output: Buffer.from(`${error.message}\n`) }));
    child.once('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }));
  });
}

const results = await Promise.all(steps.map((script) => run(script).then((result) => (process.stdout.write(result.output), result))));
const failed = results.filter((result) => result.code !== 0);
for (const result of failed) process.stderr.write(`npm run ${result.script} failed (exit ${result.code})\n`);
process.exit(failed.length === 0 ? 0 : 1);
