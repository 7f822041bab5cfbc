// A Classic API with `protocol: tcp` or `tls` compiled for the TCP proxy: its port, its upstream, its SNI name, its
// IP lists and its certificates. The same rules as every Classic definition run first (definition-rules/tcp.ts
// replaces the listen path and HTTP target rules for these), so the webhook and the gateway refuse alike.
import type { ClassicApiDefinition } from '../../domain/classic.ts';
import { classicDefinitionProblems } from '../../definition-rules/classic-definition.ts';
import { gatewayMessage } from '../../definition-rules/problems.ts';
import { isStreamApi, parseStreamTarget, type StreamTarget } from '../../definition-rules/tcp.ts';
import { DefinitionError, type IpAccessSpec } from '../definition/api-spec.ts';
import { classicIpAccess } from '../definition/ip-access.ts';
import type { StoredApi } from '../store/store.ts';

export interface TcpApi {
  id: string;
  protocol: 'tcp' | 'tls';
  port: number;
  target: StreamTarget;
  /** Lower-case host the API answers on a shared tls port (SNI); undefined: any name. */
  domain: string | undefined;
  ipAccess: IpAccessSpec | undefined;
  /** Store ids of the certificates the tls listener offers for this API. */
  certificates: string[];
  /** What a reload compares to decide whether the API changed (the whole definition, as stored). */
  fingerprint: string;
}

/** Whether a stored definition is a tcp or tls API (Classic only: OAS documents no stream protocol). */
export function isTcpDefinition(api: StoredApi): boolean {
  return api.format === 'classic' && isStreamApi(api.definition);
}

/** Compiles a tcp or tls API; throws a DefinitionError naming the field. */
export function compileTcpApi(api: StoredApi): TcpApi {
  const def = api.definition as ClassicApiDefinition;
  const problem = classicDefinitionProblems(def, '')[0];
  if (problem) throw new DefinitionError(gatewayMessage(problem));
  const target = parseStreamTarget(def.proxy!.target_url!);
  if (typeof target === 'string') throw new DefinitionError(`proxy.target_url ${target}`); // the rules refused it already
  return {
    id: api.id,
    protocol: def.protocol as 'tcp' | 'tls',
    port: def.listen_port!,
    target,
    domain: def.domain ? def.domain.toLowerCase() : undefined,
    ipAccess: classicIpAccess(def),
    certificates: def.certificates ?? [],
    fingerprint: JSON.stringify(api.definition),
  };
}
