import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, renderReadme } from './gen-docs.ts';

describe('README generated blocks', () => {
  it('match the code (run `npm run gen:docs` after changing the gateway configuration)', () => {
    const current = readFileSync(README, 'utf8');
    expect(renderReadme(current) === current).toBe(true);
  });
});
