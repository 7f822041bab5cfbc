// Organisation quotas and rate limits (enforce_org_quotas): the organisation session set through /gw/org/keys
// (stored as key `org/<org_id>`) limits every request to the organisation's APIs together. An organisation
// without a session is not limited. Refusals, all 403 (Tyk's): access disabled, rate limit exceeded,
// quota exceeded; the last two raise RateLimitExceeded / QuotaExceeded, and organisation quota monitors apply.
import type { Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { LimitCheck } from '../../store/store.ts';
import { requestEvent } from '../recording/request-event.ts';

import { organisationSessionId } from '../../session/keys.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { limitsWaived } from '../../looping/waived-limits.ts';

/** The storage id of the organisation's session (session/keys.ts: never a client's key). */
export const orgSessionId = organisationSessionId;

export function orgLimits(services: PipelineServices): Step {
  const { config, store, events, sessions } = services;
  const hideGenerator = config.hide_generator_header;
  const monitor = config.monitor.enable_trigger_monitors && config.monitor.monitor_org_keys ? config.monitor.global_trigger_limit : undefined;
  return async (ctx) => {
    if (limitsWaived(ctx)) return false; // a looped request (Tyk's check_limits)
    const id = orgSessionId(ctx.api.spec.orgId);
    const org = await sessions.resolveOrganisation(ctx.api.spec.orgId);
    if (!org?.ok) return false;
    const session = org.effective.session;
    if (session.is_inactive) {
      writeError(ctx.req, ctx.res, 403, Messages.orgInactive, { hideGenerator });
      return true;
    }
    const check: LimitCheck = {};
    if ((session.rate ?? 0) > 0 && (session.per ?? 0) > 0) check.rate = { key: id, rate: session.rate!, perMs: session.per! * 1000 };
    if ((session.quota_max ?? 0) > 0) check.quota = { key: id, max: session.quota_max!, renewalMs: Math.max(0, session.quota_renewal_rate ?? 0) * 1000 };
    if (!check.rate && !check.quota) return false;
    const result = await store.checkLimits(check, services.now());
    if (result.outcome === 'rate_limited') {
      events.emit(requestEvent(ctx, 'RateLimitExceeded', 'Organisation rate limit exceeded', { scope: 'org' }));
      writeError(ctx.req, ctx.res, 403, Messages.orgRateLimited, { hideGenerator });
      return true;
    }
    if (result.outcome === 'quota_exceeded') {
      events.emit(requestEvent(ctx, 'QuotaExceeded', 'Organisation quota exceeded', { scope: 'org' }));
      writeError(ctx.req, ctx.res, 403, Messages.orgQuotaExceeded, { hideGenerator });
      return true;
    }
    if (monitor !== undefined && check.quota && result.quota?.used === Math.ceil((check.quota.max * monitor) / 100)) {
      events.emit(requestEvent(ctx, 'TriggerExceeded', `Organisation quota usage reached ${monitor}%`, { scope: 'org', used: result.quota.used }));
    }
    return false;
  };
}

export const orgLimitsStep: StepDescriptor = {
  name: 'org-limits',
  enabledFor: (api, services) => services.config.enforce_org_quotas && api.orgId !== '',
  build: (_api, services) => ({ request: orgLimits(services) }),
};
