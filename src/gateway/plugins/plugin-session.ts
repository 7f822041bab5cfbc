// The session and spec objects JavaScript plugins are given, and the meta_data they may change: the key's session
// in its wire form (the one GET /gw/keys answers with: meta_data, access_rights, ...), the spec as Tyk's
// {OrgID, APIID, config_data}; a SessionMeta that differs from the session's meta_data replaces it in the store.
import type { Session } from '../../domain/session.ts';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { ProxyContext } from '../pipeline/contract.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import type { PluginsSpec } from './plugin-spec.ts';

export function sessionOf(ctx: ProxyContext): Session | undefined {
  return ctx.key?.ok ? ctx.key.effective.session : undefined;
}

export function specObject(spec: ApiSpec, plugins: PluginsSpec): Record<string, unknown> {
  return { OrgID: spec.orgId, APIID: spec.id, ...(plugins.configData !== undefined ? { config_data: plugins.configData } : {}) };
}

export async function storeSessionMeta(ctx: ProxyContext, session: Session, meta: unknown, services: PipelineServices): Promise<void> {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return;
  if (JSON.stringify(meta) === JSON.stringify(session.meta_data ?? {})) return;
  const storageId = ctx.key?.storageId;
  if (storageId === undefined) return;
  const stored = await services.store.getKey(storageId);
  if (!stored) return;
  await services.store.putKey(storageId, { ...stored, meta_data: meta as Record<string, unknown> }, { resetCounters: false });
  services.sessions.invalidate(storageId);
}
