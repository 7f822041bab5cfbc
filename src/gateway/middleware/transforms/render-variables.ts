// Renders a VariableText (../../definition/variable-text.ts) for one request: `$gw_context.<name>` from the request's
// context variables (context-variables.ts, plus what earlier steps set: `jwt_claims_*`), `$gw_meta.<name>` from
// the key's meta_data. A name that is not there renders as '' (Tyk\'s rule). Values are formatted as Tyk's
//  valToStr: a string list comma-joined, request_data as `k:v1,v2;k2:v`, other lists URL-escaped and
// comma-joined, numbers plainly. Context variables are built only when a part needs them, once per request.
import type { VariableText } from '../../definition/variable-text.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';
import { contextVariables } from './context-variables.ts';

export function renderVariables(text: VariableText, ctx: ProxyContext, context?: Record<string, unknown>): string {
  const parts = text.parts;
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  let vars = context;
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else if (part.source === 'meta') out += formatValue(ctx.key?.ok ? ctx.key.effective.session.meta_data?.[part.name] : undefined);
    else {
      vars ??= requestContext(ctx);
      out += formatValue(vars[part.name]);
    }
  }
  return out;
}

/**
 * The context variables templates and substitutions see: the request's, plus those earlier steps set. Built on the
 * first call of a request and kept on it (every later call, request or response phase, gets the same object, so
 * one request has one request_id); callers that add to it for themselves copy it first.
 */
export function requestContext(ctx: ProxyContext): Record<string, unknown> {
  if (ctx.contextVariables) return ctx.contextVariables;
  const vars = contextVariables(ctx);
  if (ctx.variables) Object.assign(vars, ctx.variables);
  return (ctx.contextVariables = vars);
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value.every((v) => typeof v === 'string') ? value.join(',') : value.map((v) => encodeURIComponent(formatValue(v))).join(',');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([, v]) => Array.isArray(v))) return entries.map(([k, v]) => `${k}:${(v as unknown[]).map(formatValue).join(',')}`).join(';');
    return JSON.stringify(value);
  }
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : '';
}
