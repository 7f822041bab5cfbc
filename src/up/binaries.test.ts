// The build scripts' answer (binaries.ts lastStdoutLine): the last line of stdout, read once stdout closed, even
// when it comes after the process's exit (reading at the exit lost it: a cached control plane counted as a failed
// build and a whole test run stopped); a failing script and a silent one are refused.
import { describe, expect, it } from 'vitest';
import { lastStdoutLine } from './binaries.ts';

describe('lastStdoutLine', () => {
  it('answers the last line written after the process exited (its stdout still open)', async () => {
    expect(await lastStdoutLine('/bin/sh', ['-c', 'echo progress; (sleep 0.3; echo /cache/dir) & exit 0'])).toBe('/cache/dir');
  });

  it('refuses a script that fails or says nothing', async () => {
    await expect(lastStdoutLine(process.execPath, ['-e', "console.log('/dir'); process.exit(3)"])).rejects.toThrow('exit 3');
    await expect(lastStdoutLine(process.execPath, ['-e', ''])).rejects.toThrow('no output');
  });
});
