// APIs that proxy raw streams (Classic `protocol: tcp` or `tls`) instead of HTTP: what they need and what cannot
// apply to them. Tyk Gateway drops such an API without `listen_port` ("missing listening port") and pipes bytes to
// `proxy.target_url`, which is `tcp://host:port`, `tls://host:port` or a bare `host:port` (tcp). No HTTP step runs
// on a stream, so authentication settings would be silently ignored (Tyk Gateway ignores them): refused here by name.
// Called by classic-definition.ts (the admission webhook and the gateway's loader alike) in place of the listen path
// and HTTP target rules.
import { childPath, forbidden, invalid, required, type RuleProblem } from './problems.ts';
import { asObject } from './untyped.ts';

export const STREAM_PROTOCOLS: readonly string[] = ['tcp', 'tls'];

/** Whether the raw definition proxies streams (protocol tcp or tls). */
export function isStreamApi(spec: Record<string, unknown>): boolean {
  return typeof spec.protocol === 'string' && STREAM_PROTOCOLS.includes(spec.protocol);
}

/** Authentication switches: any of them on makes no sense on a stream. */
const AUTH_FLAGS = [
  'use_standard_auth',
  'use_basic_auth',
  'use_mutual_tls_auth',
  'enable_jwt',
  'enable_signature_checking',
  'use_oauth2',
  'use_go_plugin_auth',
];

export interface StreamTarget {
  tls: boolean;
  host: string;
  port: number;
}

/** `tcp://host:port`, `tls://host:port` or `host:port`; a string naming why not otherwise. */
export function parseStreamTarget(value: string): StreamTarget | string {
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\[[0-9a-f:.]+\]|[^/:@\s[\]]+):(\d{1,5})\/?$/i.exec(value);
  if (!match) return 'must be tcp://host:port, tls://host:port or host:port';
  const scheme = (match[1] ?? 'tcp').toLowerCase();
  if (scheme !== 'tcp' && scheme !== 'tls') return 'Unsupported protocol. Should be empty, `tcp` or `tls`';
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return 'port must be 1-65535';
  return { tls: scheme === 'tls', host: match[2]!.replace(/^\[|\]$/g, ''), port };
}

/** The problems of a tcp or tls API (spec is the raw definition, base its path). */
export function checkStreamApi(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const port = spec.listen_port;
  if (port === undefined || port === 0)
    problems.push(required(childPath(base, 'listen_port'), `missing listening port: a ${String(spec.protocol)} API listens on its own port`));
  const target = asObject(spec.proxy)?.target_url;
  const targetField = childPath(base, 'proxy', 'target_url');
  if (target === undefined || target === '') problems.push(required(targetField, 'the upstream of the stream: tcp://host:port or tls://host:port'));
  else if (typeof target === 'string') {
    const parsed = parseStreamTarget(target);
    if (typeof parsed === 'string') problems.push(invalid(targetField, target, parsed));
  }
  if (asObject(spec.proxy)?.enable_load_balancing === true)
    problems.push(forbidden(childPath(base, 'proxy', 'enable_load_balancing'), 'a tcp or tls API pipes to its one target_url'));
  for (const flag of AUTH_FLAGS) {
    if (spec[flag] === true)
      problems.push(
        forbidden(
          childPath(base, flag),
          `a ${String(spec.protocol)} API pipes bytes without HTTP: no credential can be checked (set use_keyless or leave auth off)`,
        ),
      );
  }
  return problems;
}
