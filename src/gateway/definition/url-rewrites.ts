// URL rewrites of a definition -> UrlRewriteRule (Classic extended_paths.url_rewrites `{path, method,
// match_pattern, rewrite_to, triggers}`, OAS operations.<id>.urlRewrite `{enabled, pattern, rewriteTo,
// triggers}`): every regular expression compiled once here on RE2 (../../api/bounded-regexp.ts: linear time); a
// pattern RE2 cannot compile (a backreference, lookaround) refuses the API naming the field; so does a
// target that leaves the upstream (an absolute URL) other than Tyk's tyk:// looping, which the rule marks (`loops`).
import { compileBoundedRegexp, type LinearRegexp } from '../../domain/bounded-regexp.ts';
import { rewriteTargetProblem } from '../../domain/url-rewrite-checks.ts';
import { isLoopUrl } from '../looping/loop-url.ts';
import { DefinitionError } from './api-spec.ts';
import type { RewriteCondition, RewriteSource, RewriteTrigger, UrlRewriteRule } from './version-spec.ts';
import { compilePathPattern } from './path-pattern.ts';
import { parseVariableText, type VariableText } from './variable-text.ts';

export interface RewriteConditionSource {
  source: RewriteSource;
  name: string;
  pattern: string;
  reverse: boolean;
  /** The field naming the pattern in errors. */
  field: string;
}

export interface UrlRewriteSource {
  path: string;
  method: string;
  pattern: { text: string; field: string };
  rewriteTo: { text: string; field: string };
  triggers: { on: 'any' | 'all'; conditions: RewriteConditionSource[]; rewriteTo: { text: string; field: string } }[];
}

export function compileUrlRewrite(source: UrlRewriteSource): UrlRewriteRule {
  const triggers: RewriteTrigger[] = source.triggers.map((trigger) => ({
    on: trigger.on,
    conditions: trigger.conditions.map(condition),
    rewriteTo: target(trigger.rewriteTo),
  }));
  return {
    pattern: compilePathPattern(source.path),
    method: source.method.toUpperCase(),
    match: regexp(source.pattern.text, source.pattern.field),
    rewriteTo: target(source.rewriteTo),
    triggers,
    readsBody: triggers.some((t) => t.conditions.some((c) => c.source === 'payload')),
    loops: [source.rewriteTo, ...source.triggers.map((t) => t.rewriteTo)].some((rewriteTo) => isLoopUrl(rewriteTo.text)),
  };
}

function condition(source: RewriteConditionSource): RewriteCondition {
  return {
    source: source.source,
    name: source.source === 'header' ? source.name.toLowerCase() : source.name,
    label: source.name,
    regexp: regexp(source.pattern, source.field),
    reverse: source.reverse,
  };
}

function regexp(text: string, field: string): LinearRegexp {
  const result = compileBoundedRegexp(text);
  if (!result.ok) throw new DefinitionError(`${field} ${result.problem}`);
  return result.regexp;
}

function target(rewriteTo: { text: string; field: string }): VariableText {
  const problem = rewriteTargetProblem(rewriteTo.text);
  if (problem) throw new DefinitionError(`${rewriteTo.field} ${problem}`);
  return parseVariableText(rewriteTo.text);
}
