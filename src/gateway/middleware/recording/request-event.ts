// The facts of a request an event reports: API, organisation, obfuscated key, path, client address.
import type { GatewayEvent, GatewayEventType } from '../../events.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';
import { obfuscateKey } from '../../session/keys.ts';

export function requestEvent(ctx: ProxyContext, type: GatewayEventType, message: string, meta?: Record<string, unknown>): Omit<GatewayEvent, 'timestamp'> {
  return {
    type,
    message,
    api_id: ctx.api.spec.id,
    org_id: ctx.api.spec.orgId,
    key: ctx.token ? obfuscateKey(ctx.token) : '',
    path: ctx.path,
    origin: ctx.req.socket.remoteAddress ?? '',
    ...(meta ? { meta } : {}),
  };
}

export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}
