// Tyk's tyk:// looping URLs read without I/O (loop-url.ts) and the loop state's progression (loop-step.ts nextState).
import { describe, expect, it } from 'vitest';
import { nextState } from './loop-step.ts';
import { loopingName, parseLoopUrl } from './loop-url.ts';

describe('tyk:// loop URLs', () => {
  it('reads the target, path and query, taking the control parameters off the query', () => {
    expect(parseLoopUrl('tyk://self/get?method=post&loop_limit=3&check_limits=true&a=b')).toEqual({
      target: 'self',
      path: '/get',
      query: '?a=b',
      method: 'POST',
      loopLimit: 3,
      checkLimits: true,
    });
    expect(parseLoopUrl('TYK://api-1')).toEqual({ target: 'api-1', path: '/', query: '' });
    expect(parseLoopUrl('tyk://hidden%20api/x?loop_limit=0')).toEqual({ target: 'hidden api', path: '/x', query: '' });
    expect(parseLoopUrl('tyk:///x')).toBeUndefined();
    expect(parseLoopUrl('/x')).toBeUndefined();
  });

  it("derives an API's looping name as Tyk does (category cut, non-alphanumeric runs to '-')", () => {
    expect(loopingName('Hidden API')).toBe('Hidden-API');
    expect(loopingName('hidden api')).toBe('hidden-api');
    expect(loopingName('Orders v2 #internal')).toBe('Orders-v2');
    expect(loopingName('a__b..c')).toBe('a-b-c');
  });
});

describe('loop state', () => {
  const url = (query: string) => parseLoopUrl(`tyk://self/x${query}`)!;

  it('counts loops; the default limit is 5; the first loop_limit given sticks', () => {
    const first = nextState(undefined, url(''));
    expect(first).toEqual({ depth: 1, limit: 5, limitGiven: false, checkLimits: false });
    const second = nextState(first, url('?loop_limit=2'));
    expect(second).toEqual({ depth: 2, limit: 2, limitGiven: true, checkLimits: false });
    expect(nextState(second, url('?loop_limit=9&check_limits=true'))).toEqual({ depth: 3, limit: 2, limitGiven: true, checkLimits: true });
  });

  it('caps loop_limit at 100', () => {
    expect(nextState(undefined, url('?loop_limit=100000')).limit).toBe(100);
  });
});
