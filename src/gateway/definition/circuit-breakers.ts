// Compiles Classic extended_paths.circuit_breakers [{path, method, threshold_percent, samples,
// return_to_service_after, disable_half_open_state}] into CircuitBreakerRules, once at load (disabled entries drop
// out; an enabled one without a threshold or samples is refused naming the field: api/circuit-breakers.ts). The
// breakers' state lives in middleware/circuit-breaker.ts, never here.
import type { ExtendedPaths } from '../../api/classic.ts';
import { circuitBreakerProblems } from '../../api/circuit-breakers.ts';
import { DefinitionError, type CircuitBreakerRule } from './api-spec.ts';
import { compilePathPattern } from './path-pattern.ts';

export function classicCircuitBreakers(list: ExtendedPaths['circuit_breakers'], field: string): CircuitBreakerRule[] {
  const problem = circuitBreakerProblems(list)[0];
  if (problem) throw new DefinitionError(`${field}${problem.field} ${problem.message}`);
  return (list ?? [])
    .filter((entry) => !entry.disabled)
    .map((entry) => ({
      pattern: compilePathPattern(entry.path),
      method: entry.method.toUpperCase(),
      path: entry.path,
      threshold: entry.threshold_percent!,
      samples: entry.samples!,
      returnToServiceMs: (entry.return_to_service_after ?? 0) * 1000,
      halfOpen: entry.disable_half_open_state !== true,
    }));
}
