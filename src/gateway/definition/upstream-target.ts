// Upstream URLs of API definitions. `http(s)://host[:port][/base]`, or the cluster-service form
// `<service>.<namespace>.svc:<port>[/base]` without a scheme, which means plain HTTP. A target URL may also be Tyk's
// internal looping URL `tyk://<api_id or name>[/base]` (proxyTarget): the API forwards every request in memory to
// that API (looping/loop-step.ts); its `target` then only names it (never dispatched to).
import { rewriteTargetProblem } from '../../domain/url-rewrite-checks.ts';
import { isLoopUrl, parseLoopUrl } from '../looping/loop-url.ts';
import { DefinitionError } from './api-spec.ts';
import type { UpstreamTarget } from './version-spec.ts';

export function parseUpstreamTarget(value: string | undefined, field: string): UpstreamTarget {
  if (!value) throw new DefinitionError(`${field} is required`);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new DefinitionError(`${field} is not a valid URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DefinitionError(`${field} must be an http or https URL: ${value}`);
  }
  if (url.username || url.password) throw new DefinitionError(`${field} must not carry credentials`);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const basePath = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return { origin: `${url.protocol}//${url.hostname}:${port}`, host: url.host, basePath };
}

/** proxy.target_url / upstream.url: an upstream, or a tyk:// loop (`loopTarget`, kept as written). */
export function proxyTarget(value: string | undefined, field: string): { target: UpstreamTarget; loopTarget?: string } {
  if (value === undefined || !isLoopUrl(value)) return { target: parseUpstreamTarget(value, field) };
  const problem = rewriteTargetProblem(value);
  if (problem) throw new DefinitionError(`${field} ${problem}`);
  const loop = parseLoopUrl(value)!;
  return { target: { origin: `tyk://${loop.target}`, host: loop.target, basePath: loop.path === '/' ? '' : loop.path }, loopTarget: value };
}

/**
 * The targets of an API with load balancing (undefined: none). Each URL is parsed as target_url is; an empty list is
 * refused (Tyk Gateway would have no host to send to).
 */
export function loadBalancedTargets(urls: readonly string[] | undefined, field: string): UpstreamTarget[] | undefined {
  if (urls === undefined) return undefined;
  if (urls.length === 0) throw new DefinitionError(`${field} must name at least one upstream when load balancing is enabled`);
  return urls.map((url, index) => parseUpstreamTarget(url, `${field}[${index}]`));
}
