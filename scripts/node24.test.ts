import { describe, expect, it } from 'vitest';
import { currentNodeIsEnough } from './node24.mjs';

describe('Node bootstrap', () => {
  it('fetches Node 24 only where the running node cannot strip TypeScript types', () => {
    expect(currentNodeIsEnough('20.20.2')).toBe(false);
    expect(currentNodeIsEnough('22.17.1')).toBe(false);
    expect(currentNodeIsEnough('22.18.0')).toBe(true);
    expect(currentNodeIsEnough('24.21.0')).toBe(true);
    expect(currentNodeIsEnough('26.0.0')).toBe(true);
  });
});
