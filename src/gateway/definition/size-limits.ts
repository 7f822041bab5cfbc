// Compiles request body size limits, once at load: Classic extended_paths.size_limits [{path, method, size_limit}]
// and OAS operations.<id>.requestSizeLimit {enabled, value} into SizeLimitRules (a size of 0 and disabled entries
// drop out, as in Tyk). The version-wide global_size_limit is read by from-classic.ts directly.
import { operationsById, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import { configuredOperations } from '../../definition-rules/oas-definition.ts';
import type { ExtendedPaths } from '../../domain/classic.ts';
import type { SizeLimitRule } from './version-spec.ts';
import { compilePathPattern } from './path-pattern.ts';

export function classicSizeLimits(list: ExtendedPaths['size_limits']): SizeLimitRule[] {
  return (list ?? [])
    .filter((entry) => !entry.disabled && entry.size_limit > 0)
    .map((entry) => ({ pattern: compilePathPattern(entry.path), method: entry.method.toUpperCase(), bytes: entry.size_limit }));
}

/** Operations are found by operationId in `paths` (an unknown one is refused by from-oas.ts's compileOperations). */
export function oasSizeLimits(doc: OasDocument, ext: GwExtension): SizeLimitRule[] {
  const configured = configuredOperations(ext);
  const known = operationsById(doc);
  const rules: SizeLimitRule[] = [];
  for (const [operationId, operation] of Object.entries(configured)) {
    const limit = operation.requestSizeLimit;
    const target = known.get(operationId);
    if (!limit?.enabled || limit.value <= 0 || !target) continue;
    rules.push({ pattern: compilePathPattern(target.path), method: target.method, bytes: limit.value });
  }
  return rules;
}
