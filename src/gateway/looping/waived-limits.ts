// Rate limits and quotas on looped requests, as Tyk Gateway decides them: a looped request (looping/loop-step.ts)
// skips the API rate limit, the organisation's limits and the key's rate limit and quota, unless its tyk:// URL said
// check_limits=true. The client's request was counted on its way in; a loop does not count it again.
import type { ProxyContext } from '../pipeline/contract.ts';

export function limitsWaived(ctx: ProxyContext): boolean {
  return ctx.loop !== undefined && !ctx.loop.checkLimits;
}
