// A validation rule written once and enforced in two places: as a zod refinement (the gateway, the operator and
// the admission webhook parse with it) and as a CEL rule in the generated CRD (x-kubernetes-validations), so the
// apiserver rejects the object even where no webhook runs. The message names the field; keep `test` and `cel`
// saying the same thing — crd tests apply both to the same objects.
import type { z } from 'zod';

export interface Rule<T> {
  /** CEL expression over `self` (the value the rule is attached to). */
  cel: string;
  /** The same rule in TypeScript. */
  test: (value: T) => boolean;
  /** Shown to the user on rejection; names the field. */
  message: string;
}

export interface CelValidation {
  rule: string;
  message: string;
}

export function withRules<S extends z.ZodType>(schema: S, ...rules: Rule<z.output<S>>[]): S {
  let refined: S = schema;
  for (const rule of rules) refined = refined.refine(rule.test, { message: rule.message });
  const existing = (schema.meta()?.['x-kubernetes-validations'] as CelValidation[] | undefined) ?? [];
  return refined.meta({
    ...schema.meta(),
    'x-kubernetes-validations': [...existing, ...rules.map((r) => ({ rule: r.cel, message: r.message }))],
  });
}
