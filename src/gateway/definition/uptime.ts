// Uptime tests of a definition -> UptimeSpec (Classic uptime_tests + proxy.check_host_against_uptime_tests, OAS
// upstream.uptimeTests + loadBalancing.skipUnavailableHosts). Each check is an HTTP(S) request; the host it checks
// (host:port) is what load balancing compares its targets with, as Tyk Gateway does. TCP/TLS checks and service
// discovery are refused naming the field rather than ignored.
import type { ClassicApiDefinition } from '../../domain/classic.ts';
import type { GwExtension } from '../../domain/oas.ts';
import { DefinitionError, type ApiSpec, type UptimeCheckSpec, type UptimeSpec } from './api-spec.ts';

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

/** Classic uptime_tests (+ proxy.check_host_against_uptime_tests). */
export function classicUptime(def: ClassicApiDefinition): Pick<ApiSpec, 'uptime'> {
  const tests = def.uptime_tests;
  if (tests?.config?.service_discovery?.use_discovery_service === true)
    throw new DefinitionError('uptime_tests.config.service_discovery: service discovery is not supported by this gateway yet');
  const checks = tests && !tests.disabled ? (tests.check_list ?? []) : [];
  const uptime = compileUptime(
    checks.map((check) => ({
      url: check.url,
      method: check.method,
      headers: check.headers,
      body: check.body,
      timeoutMs: check.timeout ? check.timeout / 1e6 : undefined,
      tcp:
        check.protocol === 'tcp' || check.protocol === 'tls'
          ? 'protocol'
          : check.commands?.length
            ? 'commands'
            : check.enable_proxy_protocol
              ? 'enable_proxy_protocol'
              : undefined,
    })),
    def.proxy?.check_host_against_uptime_tests === true,
    'uptime_tests.check_list',
  );
  return uptime ? { uptime } : {};
}

/** OAS upstream.uptimeTests (+ loadBalancing.skipUnavailableHosts); `field` names the tests. */
export function oasUptime(upstream: GwExtension['upstream'], field: string): Pick<ApiSpec, 'uptime'> {
  const tests = upstream.uptimeTests;
  const checks = tests?.enabled ? (tests.tests ?? []) : [];
  const uptime = compileUptime(
    checks.map((test, index) => {
      const timeoutMs = durationMs(test.timeout);
      if (test.timeout && timeoutMs === undefined) throw new DefinitionError(`${field}[${index}].timeout is not a duration (500ms, 2s, 1m): ${test.timeout}`);
      return { url: test.url, method: test.method, headers: test.headers, body: test.body, timeoutMs };
    }),
    upstream.loadBalancing?.enabled === true && upstream.loadBalancing.skipUnavailableHosts === true,
    field,
  );
  return uptime ? { uptime } : {};
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
