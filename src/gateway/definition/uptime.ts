// Uptime tests of a definition -> UptimeSpec (Classic uptime_tests + proxy.check_host_against_uptime_tests, OAS
// upstream.uptimeTests + loadBalancing.skipUnavailableHosts). Each check is an HTTP(S) request; the host it checks
// (host:port) is what load balancing compares its targets with, as Tyk Gateway does. TCP/TLS checks and service
// discovery are refused naming the field rather than ignored.
import { DefinitionError, type UptimeCheckSpec, type UptimeSpec } from './api-spec.ts';

export interface UptimeCheckSource {
  url: string;
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
  /** Undefined: the gateway's time_wait. */
  timeoutMs?: number | undefined;
  /** Tyk's TCP-only settings in use (protocol tcp/tls, commands, enable_proxy_protocol): refused. */
  tcp?: string | undefined;
}

export function compileUptime(checks: UptimeCheckSource[], skipDownHosts: boolean, field: string): UptimeSpec | undefined {
  if (checks.length === 0 && !skipDownHosts) return undefined;
  return { checks: checks.map((check, index) => compileCheck(check, `${field}[${index}]`)), skipDownHosts };
}

function compileCheck(source: UptimeCheckSource, field: string): UptimeCheckSpec {
  if (source.tcp) throw new DefinitionError(`${field}.${source.tcp}: TCP uptime checks are not supported by this gateway yet (HTTP and HTTPS checks are)`);
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw new DefinitionError(`${field}.url is not a valid URL: ${source.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DefinitionError(`${field}.url must be an http or https URL: ${source.url}`);
  return {
    url: url.href,
    host: hostKey(url),
    method: (source.method || 'GET').toUpperCase(),
    headers: source.headers ?? {},
    ...(source.body ? { body: source.body } : {}),
    ...(source.timeoutMs ? { timeoutMs: source.timeoutMs } : {}),
  };
}

/** host:port with the scheme's default port: how a check and a load-balanced target are matched. */
export function hostKey(url: { protocol: string; hostname: string; port: string }): string {
  return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** OAS durations (`500ms`, `2s`, `1m`, `1h`, or combined `1m30s`) in milliseconds; undefined when unreadable. */
export function durationMs(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = text.trim();
  while (rest) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (!match) return undefined;
    total += Number(match[1]) * units[match[2]!]!;
    rest = rest.slice(match[0].length);
  }
  return total;
}
