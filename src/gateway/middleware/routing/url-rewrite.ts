// URL rewrites (Classic url_rewrites, OAS urlRewrite). The first rule of the version matching the request's method
// and path applies: its match_pattern is tested against the path relative to the listen path plus the query (e.g.
// `/users/7?full=1`); without a match nothing changes. With one, the target is the rule's rewrite_to, or the
// rewrite_to of the first trigger whose conditions hold (`any`: one of them, `all`: every one): header, query
// parameter, path part, key meta_data, context variable or body (payload: read, at most transform_max_body_bytes,
// 413 beyond, only for rules that have such a trigger), each matching its expression (or not, with reverse).
// In the target, `$N` is match_pattern's group N ($0 the whole match) and `$gw_context.trigger-<t>-<name>-<i>`
// a trigger condition's captures (Tyk\'s naming, `$tyk_context.` too), besides the usual variables.
//
// A target written as Tyk's looping URL (`tyk://self/...`, `tyk://<api>/...`) makes the result a loop instead
// (ctx.loopUrl: ../looping/loop-step.ts runs the request through that API in place of the upstream).
//
// The result is the path (and query) the upstream receives under its target URL (ctx.upstreamPath); endpoint
// rules after this step still see the request's own path. A result that is no valid request target (spaces,
// control characters, '#': a variable carried them from the request) answers 400 naming the rewrite, never a 500.
import type { RewriteCondition, RewriteTrigger, UrlRewriteRule } from '../../definition/version-spec.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { renderVariables, requestContext } from '../transforms/render-variables.ts';
import { withRequestBody } from '../../pipeline/request-body.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';
import type { VariableText } from '../../definition/variable-text.ts';
import { isLoopUrl } from '../../looping/loop-url.ts';

const REQUEST_TARGET = /^[\x21-\x22\x24-\x7e]*$/;
export const REWRITE_INVALID = 'the URL rewrite produced an invalid path';

export function urlRewrite(services: PipelineServices): Step {
  const maxBytes = services.config.transform_max_body_bytes;
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const rule = endpointRule(ctx.version!.urlRewrites, ctx);
    if (!rule) return false;
    const groups = rule.match.exec(ctx.relPath + ctx.query);
    if (!groups) return false;
    if (!rule.readsBody) return rewrite(ctx, rule, groups, undefined, hideGenerator);
    return withRequestBody(ctx, maxBytes, hideGenerator, (body) => rewrite(ctx, rule, groups, body, hideGenerator));
  };
}

function rewrite(ctx: ProxyContext, rule: UrlRewriteRule, groups: RegExpExecArray, body: Buffer | undefined, hideGenerator: boolean): boolean {
  // Built only when something reads it (a trigger, or a target naming context variables); a copy, because a trigger's
  // captures join it for this rewrite only.
  const context = rule.triggers.length > 0 ? { ...requestContext(ctx) } : undefined;
  let target = rule.rewriteTo;
  for (let t = 0; t < rule.triggers.length; t++) {
    if (triggerHolds(rule.triggers[t]!, t, ctx, context!, body)) {
      target = rule.triggers[t]!.rewriteTo;
      break;
    }
  }
  // Groups fill the configured text only: a variable's value (from the request) is never read for `$N`.
  const parts = target.parts.map((part) => (typeof part === 'string' ? part.replace(/\$(\d+)/g, (_, n: string) => groups[Number(n)] ?? '') : part));
  const rendered = renderVariables({ parts, usesContext: target.usesContext }, ctx, context);
  if (startsLoop(target)) {
    // The target's name may hold spaces (an API's name: Tyk compares looping names); its path and query may not.
    if (!REQUEST_TARGET.test(rendered.slice(rendered.slice(6).search(/[/?]|$/) + 6))) {
      writeError(ctx.req, ctx.res, 400, REWRITE_INVALID, { hideGenerator });
      return true;
    }
    ctx.loopUrl = rendered;
    return false;
  }
  const path = rendered.startsWith('/') ? rendered : `/${rendered}`;
  if (!REQUEST_TARGET.test(path)) {
    writeError(ctx.req, ctx.res, 400, REWRITE_INVALID, { hideGenerator });
    return true;
  }
  ctx.upstreamPath = path;
  return false;
}

/** The configured text (never a value from the request) begins with tyk://. */
function startsLoop(target: VariableText): boolean {
  const first = target.parts[0];
  return typeof first === 'string' && isLoopUrl(first);
}

/** Evaluates a trigger; its conditions' captures join `context` as trigger-<t>-<label>-<i> when it holds. */
function triggerHolds(trigger: RewriteTrigger, t: number, ctx: ProxyContext, context: Record<string, unknown>, body: Buffer | undefined): boolean {
  const captures: Record<string, string> = {};
  let any = false;
  for (const condition of trigger.conditions) {
    const holds = conditionHolds(condition, ctx, context, body, (i, value) => (captures[`trigger-${t}-${condition.label}-${i}`] = value));
    if (holds && trigger.on === 'any') {
      any = true;
      break;
    }
    if (!holds && trigger.on === 'all') return false;
  }
  if (trigger.on === 'any' && !any) return false;
  Object.assign(context, captures);
  return true;
}

function conditionHolds(
  condition: RewriteCondition,
  ctx: ProxyContext,
  context: Record<string, unknown>,
  body: Buffer | undefined,
  capture: (i: number, value: string) => void,
): boolean {
  const values = conditionValues(condition, ctx, context, body);
  let index = 0;
  let matched = false;
  for (const value of values) {
    const found = condition.regexp.exec(value);
    if (!found) continue;
    matched = true;
    // Each group of each matching value, numbered in order (Tyk's trigger-<t>-<name>-<i>).
    for (const group of found.length > 1 ? found.slice(1) : [found[0]]) capture(index++, group ?? '');
    if (condition.source !== 'path') break;
  }
  return matched !== condition.reverse;
}

function conditionValues(condition: RewriteCondition, ctx: ProxyContext, context: Record<string, unknown>, body: Buffer | undefined): string[] {
  switch (condition.source) {
    case 'header': {
      const value = ctx.req.headers[condition.name];
      return value === undefined ? [] : Array.isArray(value) ? value : [value];
    }
    case 'query':
      return new URLSearchParams(ctx.query).getAll(condition.name);
    case 'path':
      return ctx.relPath.split('/').filter(Boolean);
    case 'meta': {
      const value = ctx.key?.ok ? ctx.key.effective.session.meta_data?.[condition.name] : undefined;
      return value === undefined || value === null ? [] : [typeof value === 'string' ? value : JSON.stringify(value)];
    }
    case 'context': {
      const value = context[condition.name];
      return value === undefined || value === null ? [] : [typeof value === 'string' ? value : JSON.stringify(value)];
    }
    case 'payload':
      return body ? [body.toString('utf8')] : [];
  }
}

export const urlRewriteStep: StepDescriptor = {
  name: 'url-rewrite',
  enabledFor: (api) => anyVersion(api, (v) => v.urlRewrites.length > 0),
  build: (_api, services) => ({ request: urlRewrite(services) }),
};
