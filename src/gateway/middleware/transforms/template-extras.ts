// What a body transform's template sees besides the body, for request and response transforms alike: `._gw_meta`
// (the key's meta_data, when the rule enables the session and a key is known) and `._gw_context` (the request's
// context variables, when the API enables them), as the JSON the executor merges into the decoded body. Never logs.
import type { BodyTransformRule } from '../../definition/version-spec.ts';
import type { ProxyContext } from '../../pipeline/contract.ts';
import { requestContext } from './render-variables.ts';

/** Undefined when the template sees the body alone. */
export function templateExtras(ctx: ProxyContext, rule: BodyTransformRule): Buffer | undefined {
  const extra: Record<string, unknown> = {};
  if (rule.enableSession && ctx.key?.ok) extra._gw_meta = ctx.key.effective.session.meta_data ?? {};
  if (ctx.api.spec.enableContextVars) extra._gw_context = requestContext(ctx);
  return Object.keys(extra).length > 0 ? Buffer.from(JSON.stringify(extra)) : undefined;
}
