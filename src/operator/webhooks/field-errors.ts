// What admission validation says about an object: field errors (each naming its path, spec.x.y, and saying what
// is allowed) and warnings. The types and their wording follow Kubernetes' own field errors
// (k8s.io/apimachinery/pkg/util/validation/field), so a rejection from our webhook reads like one from the
// apiserver: `spec.use_keyless: Forbidden: ...`, `spec.per: Required value: ...`, `spec.state: Unsupported value:
// "x": supported values: "active", "draft"`. Pure values and formatting only; deciding what is wrong lives in the
// per-kind files.

export type FieldErrorType = 'Required' | 'Forbidden' | 'Invalid' | 'Duplicate' | 'NotSupported';

export interface FieldError {
  /** Path of the offending field, e.g. spec.access_rights_array[1].limit.per. */
  field: string;
  type: FieldErrorType;
  /** What is wrong and what is allowed (the detail after the type). */
  message: string;
  /** The offending value, for Invalid, Duplicate and NotSupported. */
  value?: unknown;
}

export interface ValidationResult {
  errors: FieldError[];
  /** Shown by kubectl as `Warning: ...`; each names its field. */
  warnings: string[];
}

// The definition rules (src/definition-rules) build Required, Forbidden and Invalid errors and the paths.
export { childPath, forbidden, invalid, keyPath, required } from '../../definition-rules/problems.ts';
export const duplicate = (field: string, value: unknown, message: string): FieldError => ({ field, type: 'Duplicate', value, message });
export const notSupported = (field: string, value: unknown, supported: readonly string[]): FieldError => ({
  field,
  type: 'NotSupported',
  value,
  message: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`,
});

/** The metav1.StatusCause reason of each type (what the apiserver puts in status.details.causes[].reason). */
export const CAUSE_TYPE: Record<FieldErrorType, string> = {
  Required: 'FieldValueRequired',
  Forbidden: 'FieldValueForbidden',
  Invalid: 'FieldValueInvalid',
  Duplicate: 'FieldValueDuplicate',
  NotSupported: 'FieldValueNotSupported',
};

/** The error without its field: `Forbidden: a keyless API ...`, `Invalid value: 0: must be ...`. */
export function errorBody(error: FieldError): string {
  switch (error.type) {
    case 'Required':
      return `Required value: ${error.message}`;
    case 'Forbidden':
      return `Forbidden: ${error.message}`;
    case 'Invalid':
      return `Invalid value: ${renderValue(error.value)}: ${error.message}`;
    case 'Duplicate':
      return `Duplicate value: ${renderValue(error.value)}: ${error.message}`;
    case 'NotSupported':
      return `Unsupported value: ${renderValue(error.value)}: ${error.message}`;
  }
}

/** `spec.use_keyless: Forbidden: a keyless API cannot also use standard auth (spec.use_standard_auth)`. */
export function describeFieldError(error: FieldError): string {
  return `${error.field}: ${errorBody(error)}`;
}

const MAX_VALUE_LENGTH = 80;

function renderValue(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'null';
  else if (typeof value === 'object' && value !== null) text = Array.isArray(value) ? `array of ${value.length}` : JSON.stringify(value);
  else text = JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}...` : text;
}

/** Errors first found by the schema win: a semantic check never repeats a field the schema already refused. */
export function mergeResults(schemaErrors: FieldError[], ...results: ValidationResult[]): ValidationResult {
  const refused = new Set(schemaErrors.map((e) => e.field));
  const errors = [...schemaErrors];
  const warnings: string[] = [];
  for (const result of results) {
    for (const error of result.errors) {
      if (refused.has(error.field) || errors.some((e) => e.field === error.field && e.type === error.type && e.message === error.message)) continue;
      errors.push(error);
    }
    warnings.push(...result.warnings.filter((w) => !warnings.includes(w)));
  }
  return { errors, warnings };
}

/** Collects errors and warnings while a validator walks an object. */
export class Findings implements ValidationResult {
  readonly errors: FieldError[] = [];
  readonly warnings: string[] = [];

  error(error: FieldError): void {
    this.errors.push(error);
  }

  warn(field: string, message: string): void {
    this.warnings.push(`${field}: ${message}`);
  }

  add(result: ValidationResult): void {
    this.errors.push(...result.errors);
    this.warnings.push(...result.warnings);
  }
}
