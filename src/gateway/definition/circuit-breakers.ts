// Compiles Classic extended_paths.circuit_breakers [{path, method, threshold_percent (a number or "0.5"), samples,
// return_to_service_after, disable_half_open_state}] and OAS operations.<id>.circuitBreaker {enabled, threshold,
// sampleSize, coolDownPeriod, halfOpenStateEnabled} (Tyk's names; half-open off unless enabled, as Tyk
// reads it) into CircuitBreakerRules, once at load (disabled entries drop
// out; an enabled one without a threshold or samples is refused naming the field: api/circuit-breakers.ts). The
// breakers' state lives in middleware/limits/circuit-breaker.ts, never here.
import type { ExtendedPaths } from '../../domain/classic.ts';
import { circuitBreakerProblems, thresholdRatio } from '../../domain/circuit-breakers.ts';
import { GW_EXTENSION, operationsById, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import { configuredOperations } from '../../definition-rules/oas-definition.ts';
import { DefinitionError } from './api-spec.ts';
import type { CircuitBreakerRule } from './version-spec.ts';
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
      threshold: thresholdRatio(entry.threshold_percent)!,
      samples: entry.samples!,
      returnToServiceMs: (entry.return_to_service_after ?? 0) * 1000,
      halfOpen: entry.disable_half_open_state !== true,
    }));
}

/** Operations are found by operationId in `paths` (an unknown one is refused by from-oas.ts's compileOperations). */
export function oasCircuitBreakers(doc: OasDocument, ext: GwExtension): CircuitBreakerRule[] {
  const known = operationsById(doc);
  const rules: CircuitBreakerRule[] = [];
  for (const [operationId, operation] of Object.entries(configuredOperations(ext))) {
    const breaker = operation.circuitBreaker;
    const target = known.get(operationId);
    if (!breaker?.enabled || !target) continue;
    const entry = {
      path: target.path,
      method: target.method,
      ...(breaker.threshold !== undefined ? { threshold_percent: breaker.threshold } : {}),
      ...(breaker.sampleSize !== undefined ? { samples: breaker.sampleSize } : {}),
      ...(breaker.coolDownPeriod !== undefined ? { return_to_service_after: breaker.coolDownPeriod } : {}),
      disable_half_open_state: breaker.halfOpenStateEnabled !== true,
    };
    const problem = circuitBreakerProblems([entry])[0];
    if (problem) {
      const name = problem.field.endsWith('threshold_percent') ? 'threshold' : 'sampleSize';
      throw new DefinitionError(`${GW_EXTENSION}.middleware.operations.${operationId}.circuitBreaker.${name} ${problem.message}`);
    }
    rules.push(...classicCircuitBreakers([entry], ''));
  }
  return rules;
}
