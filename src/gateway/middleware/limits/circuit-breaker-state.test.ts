import { describe, expect, it } from 'vitest';
import type { CircuitBreakerRule } from '../../definition/version-spec.ts';
import { compilePathPattern } from '../../definition/path-pattern.ts';
import { CircuitBreakerState, type BreakerTransition } from './circuit-breaker-state.ts';

const rule = (overrides: Partial<CircuitBreakerRule> = {}): CircuitBreakerRule => ({
  pattern: compilePathPattern('/x'),
  method: 'GET',
  path: '/x',
  threshold: 0.5,
  samples: 4,
  returnToServiceMs: 1000,
  halfOpen: true,
  ...overrides,
});

function breakerWith(r: CircuitBreakerRule): { breaker: CircuitBreakerState; transitions: BreakerTransition[]; note: (t: BreakerTransition) => void } {
  const transitions: BreakerTransition[] = [];
  return { breaker: new CircuitBreakerState(r), transitions, note: (t) => transitions.push(t) };
}

describe('circuit breaker state', () => {
  it('trips on a failure, once `samples` answers were seen and the failed share reaches the threshold (Tyk judges on failures only)', () => {
    const { breaker, transitions, note } = breakerWith(rule());
    breaker.record('closed', true, 0, note);
    breaker.record('closed', true, 0, note); // 2 failures, but only 2 of 4 answers seen
    expect(breaker.open).toBe(false);
    breaker.record('closed', false, 0, note);
    breaker.record('closed', false, 0, note); // 2 of 4, but a success never trips
    expect(breaker.open).toBe(false);
    breaker.record('closed', true, 0, note); // last four: F S S F = 0.5
    expect(breaker.open).toBe(true);
    expect(transitions).toEqual(['tripped']);
  });

  it('judges the last `samples` answers only: old failures roll out of the window', () => {
    const { breaker, note } = breakerWith(rule({ threshold: 0.75 }));
    for (const failed of [true, true, false, false, false, true]) breaker.record('closed', failed, 0, note);
    expect(breaker.open).toBe(false); // last four: F F F T... = false,false,false,true -> 1 of 4
    breaker.record('closed', true, 0, note);
    breaker.record('closed', true, 0, note); // last four: false, true, true, true -> 0.75
    expect(breaker.open).toBe(true);
  });

  it('refuses until return_to_service_after, then admits one trial; its success closes the breaker', () => {
    const { breaker, transitions, note } = breakerWith(rule({ samples: 1, threshold: 1 }));
    breaker.record('closed', true, 0, note);
    expect(breaker.admit(999, note)).toBeUndefined();
    expect(breaker.admit(1000, note)).toBe('trial');
    expect(breaker.admit(1001, note)).toBeUndefined(); // one trial at a time
    breaker.record('closed', false, 1002, note); // an answer admitted before the trip does not close it
    expect(breaker.open).toBe(true);
    breaker.record('trial', false, 1003, note);
    expect(breaker.open).toBe(false);
    expect(breaker.admit(1004, note)).toBe('closed');
    expect(transitions).toEqual(['tripped', 'reset']);
  });

  it('stays open for another period when the trial fails', () => {
    const { breaker, transitions, note } = breakerWith(rule({ samples: 1, threshold: 1 }));
    breaker.record('closed', true, 0, note);
    expect(breaker.admit(1000, note)).toBe('trial');
    breaker.record('trial', true, 1010, note);
    expect(breaker.admit(1999, note)).toBeUndefined();
    expect(breaker.admit(2000, note)).toBe('trial');
    expect(transitions).toEqual(['tripped']);
  });

  it('with disable_half_open_state closes outright at the end of the period', () => {
    const { breaker, transitions, note } = breakerWith(rule({ samples: 1, threshold: 1, halfOpen: false }));
    breaker.record('closed', true, 0, note);
    expect(breaker.admit(500, note)).toBeUndefined();
    expect(breaker.admit(1000, note)).toBe('closed');
    expect(breaker.open).toBe(false);
    expect(transitions).toEqual(['tripped', 'reset']);
    breaker.record('closed', false, 1001, note); // a fresh window: one success does not trip
    expect(breaker.open).toBe(false);
  });
});
