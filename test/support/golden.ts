// Golden files: compares a rendered text with the file that pins it. The file is written only when UPDATE_GOLDEN=1
// (after an intended change; review the diff like code). A missing golden file is a failure, never a silent write:
// a test that creates its own expectation would pass on any output. Used by unit and integration tests alike.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

/** True when this run rewrites golden files (UPDATE_GOLDEN=1). */
export const updatingGolden = (): boolean => process.env.UPDATE_GOLDEN === '1';

/** Asserts `actual` equals the content of `file`; with UPDATE_GOLDEN=1 writes `actual` there first. */
export function expectGolden(file: string, actual: string): void {
  if (updatingGolden()) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  if (!existsSync(file)) expect.fail(`golden file ${file} is missing: write it with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
