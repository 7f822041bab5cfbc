// Where a Classic API is served and where it sends requests: the listen path, the upstream target (one, or a
// load-balanced list), api_id and the domain. One rule each, called by the admission webhook and by the gateway's
// loader (classic-definition.ts); the gateway compiles the accepted values (gateway/definition/listen-path.ts,
// upstream-target.ts, domain-pattern.ts).
import { parseDomain } from '../domain/domain-pattern.ts';
import { rewriteTargetProblem } from '../domain/url-rewrite-checks.ts';
import { invalid, required, type RuleProblem } from './problems.ts';

/**
 * `http(s)://host[:port][/base]`, or a host without a scheme (`<service>.<namespace>.svc:<port>`), meaning http;
 * with `loops`, also Tyk's internal looping URL `tyk://<api id or name>[/base]` (proxy.target_url).
 */
export function checkUpstreamTarget(value: unknown, field: string, isRequired: boolean, loops = false): RuleProblem[] {
  if (value === undefined || value === '') {
    return isRequired ? [required(field, 'the upstream URL: http(s)://host[:port][/path] or <service>.<namespace>.svc:<port>')] : [];
  }
  if (typeof value !== 'string') return []; // the schema reports the type
  if (loops && /^tyk:\/\//i.test(value)) {
    const problem = rewriteTargetProblem(value);
    return problem ? [invalid(field, value, problem)] : [];
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return [invalid(field, value, 'must be an absolute http(s) URL (http(s)://host[:port][/path]) or <service>.<namespace>.svc:<port>')];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [invalid(field, value, 'must be an http or https URL')];
  if (url.username || url.password) return [invalid(field, '(redacted)', 'must not carry credentials (user:password@)')];
  return [];
}

/** A literal path starting with '/', without wildcards, query, fragment, escapes or dot segments. */
export function checkListenPath(value: unknown, field: string): RuleProblem[] {
  if (value === undefined || value === '') return [required(field, "the path the API answers under on the gateway, starting with '/' (e.g. /httpbin)")];
  if (typeof value !== 'string') return [];
  if (!value.startsWith('/')) return [invalid(field, value, "must start with '/'")];
  if (/[{}?#%\\]/.test(value)) return [invalid(field, value, 'must be a literal path: no {}, ?, #, % or \\')];
  if (value.split('/').some((segment) => segment === '.' || segment === '..')) return [invalid(field, value, "must not contain '.' or '..' segments")];
  return [];
}

/** api_id ends up in URLs and file names on the gateway. */
export function checkApiId(value: unknown, field: string): RuleProblem[] {
  if (typeof value !== 'string') return [];
  return /^[A-Za-z0-9._~-]{1,128}$/.test(value) ? [] : [invalid(field, value, 'must be 1-128 characters of A-Z a-z 0-9 . _ ~ -')];
}

/** `domain`: a host, or a whole first label as a wildcard (the gateway's rule, api/domain-pattern.ts). */
export function checkDomain(value: unknown, field: string): RuleProblem[] {
  if (typeof value !== 'string' || value === '') return [];
  const pattern = parseDomain(value);
  return 'problem' in pattern ? [invalid(field, value, pattern.problem.slice(value.length + 2))] : [];
}

/** enable_load_balancing: target_list names at least one upstream, each one a target_url would be. */
export function checkLoadBalancedTargets(value: unknown, field: string): RuleProblem[] {
  const list = Array.isArray(value) ? value : [];
  if (list.length === 0) return [required(field, 'at least one upstream URL when enable_load_balancing is set')];
  return list.flatMap((url, index) => checkUpstreamTarget(url, `${field}[${index}]`, true));
}
