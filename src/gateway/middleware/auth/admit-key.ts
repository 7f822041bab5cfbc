// The checks every authentication mode makes on the session it found, once found (token, basic auth, JWT): its
// policies must apply (else 403 `Access to this API has been disallowed`), it must be active (403 `Key is
// inactive, please renew`) and unexpired (401 `Key has expired, please renew`). When the mode provides the
// request's identity the session is put on the context for access rights, limits and quota.
import type { ProxyContext } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { ResolvedKey } from '../../session/session-cache.ts';

/** `true` when the request was refused (answered). */
export function admitKey(ctx: ProxyContext, key: ResolvedKey, services: PipelineServices, providesIdentity: boolean): boolean {
  const hideGenerator = services.config.hide_generator_header;
  if (!key.ok) {
    services.log.warn({ api_id: ctx.api.spec.id, reason: key.error }, 'key refused: its policies cannot be applied');
    writeError(ctx.req, ctx.res, 403, Messages.keyNotAuthorised, { hideGenerator });
    return true;
  }
  if (key.effective.inactive) {
    writeError(ctx.req, ctx.res, 403, Messages.keyInactive, { hideGenerator });
    return true;
  }
  const expires = key.effective.expires;
  if (expires > 0 && expires * 1000 <= services.now()) {
    writeError(ctx.req, ctx.res, 401, Messages.keyExpired, { hideGenerator });
    return true;
  }
  if (providesIdentity) ctx.key = key;
  return false;
}
