// The key's rate limit, throttling and quota (gw\'s documented state tables), decided by ONE store call per attempt so
// a request rejected by either limit consumes neither:
//   within limits            -> proxied; X-RateLimit-* carry the quota (or the rate limit, by configuration)
//   over the rate, no throttle -> 429 `Rate Limit Exceeded` with Retry-After; RateLimitExceeded
//   over the rate, throttling (throttle_interval > 0 and throttle_retry_limit > 0)
//                            -> RateLimitExceeded (throttled), then up to throttle_retry_limit times: wait
//                               throttle_interval, re-check; proxied as soon as the window has room, 429 when the
//                               retries are spent. The request is held at most interval x retries seconds.
//   over the quota           -> 403 `Quota exceeded`; QuotaExceeded. Quotas are never throttled.
// Quota monitors raise TriggerExceeded once per period, at the request that reaches global_trigger_limit percent.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Step, ProxyContext } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { LimitCheck, LimitResult } from '../../store/store.ts';
import { requestEvent, retryAfterSeconds } from '../recording/request-event.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { isAuthenticated } from '../auth/auth-modes.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { limitsWaived } from '../../looping/waived-limits.ts';

export function keyLimits(services: PipelineServices): Step {
  const { config, store, events, metrics } = services;
  const hideGenerator = config.hide_generator_header;
  const reportRate = config.rate_limit_response_headers === 'rate_limits';
  const monitor = config.monitor.enable_trigger_monitors && config.monitor.monitor_user_keys ? config.monitor.global_trigger_limit : undefined;

  const finish = (ctx: ProxyContext, check: LimitCheck, result: LimitResult, now: number): boolean => {
    // Reported on answered requests, and on a 429 when the headers report the rate limit (rate-limit-headers.ts
    // writes them on whatever answers); a quota refusal reports nothing.
    if (check.rate && reportRate && result.rate && result.outcome !== 'quota_exceeded') {
      ctx.rateLimitHeaders = { limit: check.rate.rate, remaining: result.rate.remaining, reset: Math.ceil((now + result.rate.retryAfterMs) / 1000) };
    } else if (check.quota && !reportRate && result.quota && result.outcome === 'allowed') {
      ctx.rateLimitHeaders = { limit: check.quota.max, remaining: result.quota.remaining, reset: Math.floor(result.quota.renewsAt / 1000) };
    }
    if (result.outcome === 'rate_limited') {
      writeError(ctx.req, ctx.res, 429, Messages.rateLimited, { hideGenerator, headers: { 'Retry-After': retryAfterSeconds(result.rate.retryAfterMs) } });
      return true;
    }
    if (result.outcome === 'quota_exceeded') {
      events.emit(requestEvent(ctx, 'QuotaExceeded', 'Key quota exceeded', { quota_max: check.quota!.max }));
      writeError(ctx.req, ctx.res, 403, Messages.quotaExceeded, { hideGenerator });
      return true;
    }
    if (monitor !== undefined && check.quota && result.quota && result.quota.used === Math.ceil((check.quota.max * monitor) / 100)) {
      events.emit(requestEvent(ctx, 'TriggerExceeded', `Key quota usage reached ${monitor}%`, { quota_max: check.quota.max, used: result.quota.used }));
    }
    return false;
  };

  const throttleAndFinish = async (ctx: ProxyContext, check: LimitCheck, first: LimitResult, now: number): Promise<boolean> => {
    const limits = ctx.access!.limits;
    let result = first;
    const throttle = limits.throttleInterval > 0 && limits.throttleRetryLimit > 0;
    events.emit(requestEvent(ctx, 'RateLimitExceeded', 'Key rate limit exceeded', { rate: limits.rate, per: limits.per, throttled: throttle }));
    if (throttle) {
      metrics.throttled(now);
      for (let attempt = 0; attempt < limits.throttleRetryLimit && result.outcome === 'rate_limited'; attempt++) {
        await sleep(limits.throttleInterval * 1000);
        if (ctx.req.destroyed || ctx.res.destroyed) return true; // the client went away while queued
        now = services.now();
        result = await store.checkLimits(check, now);
      }
    }
    return finish(ctx, check, result, now);
  };

  const decide = (ctx: ProxyContext, check: LimitCheck, result: LimitResult, now: number): boolean | Promise<boolean> =>
    result.outcome === 'rate_limited' ? throttleAndFinish(ctx, check, result, now) : finish(ctx, check, result, now);

  const checkSync = store.checkLimitsSync;
  return (ctx) => {
    if (ctx.ignored || !ctx.access || !ctx.key?.ok || limitsWaived(ctx)) return false;
    const { limits, scope } = ctx.access;
    const spec = ctx.api.spec;
    const counter = scope ? `${ctx.key.storageId}|${scope}` : ctx.key.storageId;
    const check: LimitCheck = {};
    if (!spec.disableRateLimit && limits.rate > 0 && limits.per > 0) check.rate = { key: counter, rate: limits.rate, perMs: limits.per * 1000 };
    if (!spec.disableQuota && limits.quotaMax > 0) check.quota = { key: counter, max: limits.quotaMax, renewalMs: Math.max(0, limits.quotaRenewalRate) * 1000 };
    if (!check.rate && !check.quota) return false;

    const now = services.now();
    // An embedded store answers in place: the common case (within limits) costs no promise and no microtask.
    const decided = checkSync?.(check, now);
    if (decided) return decide(ctx, check, decided, now);
    return store.checkLimits(check, now).then((result) => decide(ctx, check, result, now));
  };
}

/** The key's limits, and the X-RateLimit-* headers they decide on every answer. */
export const keyLimitsStep: StepDescriptor = {
  name: 'key-limits',
  enabledFor: (api) => isAuthenticated(api) && !(api.disableQuota && api.disableRateLimit),
  build: (_api, services) => ({ request: keyLimits(services), response: rateLimitHeaders }),
};
