// What makes an enabled extended_paths.circuit_breakers entry usable beyond its schema: a threshold above 0 and at
// least one sample (the schema keeps both optional so that a disabled entry, as Tyk's samples write it, needs
// neither). Shared by the gateway (definition/circuit-breakers.ts) and the admission webhook so they cannot disagree.
// threshold_percent is a number or a string holding one (Tyk Operator's CRD types it as a string: "0.5"). Never throws.

export interface CircuitBreakerProblem {
  /** Relative to the list: `[0].samples`. */
  field: string;
  message: string;
}

export function circuitBreakerProblems(list: unknown): CircuitBreakerProblem[] {
  if (!Array.isArray(list)) return [];
  const problems: CircuitBreakerProblem[] = [];
  list.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null) return;
    const breaker = entry as { threshold_percent?: unknown; samples?: unknown; disabled?: unknown };
    if (breaker.disabled === true) return;
    const threshold = thresholdRatio(breaker.threshold_percent);
    if (threshold === undefined || threshold <= 0 || threshold > 1) {
      problems.push({ field: `[${index}].threshold_percent`, message: 'is required: the error ratio (above 0, at most 1) that trips the breaker' });
    }
    if (typeof breaker.samples !== 'number' || breaker.samples < 1) {
      problems.push({ field: `[${index}].samples`, message: 'is required: how many answers (1 or more) the error ratio is taken over' });
    }
  });
  return problems;
}

/** threshold_percent as a number: a number as is, a string holding a decimal number parsed; anything else undefined. */
export function thresholdRatio(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !/^[0-9]*\.?[0-9]+$/.test(value)) return undefined;
  return Number(value);
}
