// The one rule lookup of the per-endpoint middleware (timeouts, body and header transforms, URL rewrites, size
// limits, JSON Schema validation, circuit breakers, the response cache, endpoint tracking): the first rule of a list whose method is the request's and whose path pattern
// matches the path relative to the listen path. Rules are compiled once at load (definition/); this only reads them,
// allocating nothing. Endpoint lists and mocks have their own matching (any-method entries): not this.
import type { PathPattern } from '../definition/path-pattern.ts';
import type { ProxyContext } from './contract.ts';

export interface EndpointRule {
  readonly method: string;
  readonly pattern: PathPattern;
}

export function endpointRule<R extends EndpointRule>(rules: readonly R[] | undefined, ctx: ProxyContext): R | undefined {
  if (rules === undefined) return undefined;
  for (const rule of rules) {
    if (rule.method === ctx.method && rule.pattern.test(ctx.relPath)) return rule;
  }
  return undefined;
}
