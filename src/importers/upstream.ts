// Upstream URLs of imported APIs, checked the way the gateway will read proxy.target_url: http(s)://host[:port]
// [/base], or a scheme-less host[:port][/base] meaning plain HTTP (cluster services). A relative URL (OpenAPI 3
// servers such as `/api/v3`) is not an upstream.
import { ImportError } from './errors.ts';

/** The option's value when it is a usable upstream; throws ImportError naming upstreamUrl otherwise. */
export function checkedUpstreamOption(value: string): string {
  const problem = upstreamProblem(value);
  if (problem) throw new ImportError('upstreamUrl', `{param} ${problem}: ${value}`);
  return value.trim();
}

/** Why this is not a usable upstream URL, or undefined when it is one. */
export function upstreamProblem(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return 'is empty';
  if (trimmed.startsWith('/') || trimmed.startsWith('.')) return 'is a relative URL, not an upstream';
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `http://${trimmed}`);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (!url.hostname) return 'has no host';
  if (url.username || url.password) return 'must not carry credentials';
  return undefined;
}
