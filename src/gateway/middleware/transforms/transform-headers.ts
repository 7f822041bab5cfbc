// Header transforms (Classic transform_headers / transform_response_headers, OAS transformRequestHeaders /
// transformResponseHeaders). The first rule of the version matching the request's method and path (relative to
// the listen path, before any URL rewrite) applies: its `remove` names are deleted, then its `add` headers are
// set (replacing what was there), values rendered with the request's variables (render-variables.ts).
//
// Request: edits the headers the upstream receives (ctx.req.headers, which forward.ts sends), after the body
// transform and before URL rewrites (Tyk's order). Response: a response step on answers that came from the
// upstream only — mocks and the gateway's own errors are not the upstream's answer and are left as they are (Tyk
//  runs its response middleware on proxied answers only). Never logs header values.
import type { HeaderTransformRule } from '../../definition/version-spec.ts';
import type { ProxyContext, ResponseHead, ResponseStep, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { renderVariables, requestContext } from './render-variables.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

function apply(rule: HeaderTransformRule, ctx: ProxyContext, headers: Record<string, unknown>): void {
  for (const name of rule.remove) delete headers[name];
  let context: Record<string, unknown> | undefined;
  for (const { name, value } of rule.add) {
    if (value.usesContext) context ??= requestContext(ctx);
    headers[name] = renderVariables(value, ctx, context);
  }
}

export const transformRequestHeaders: Step = (ctx) => {
  const rule = endpointRule(ctx.version!.requestHeaders, ctx);
  if (rule) apply(rule, ctx, ctx.req.headers);
  return false;
};

export const transformResponseHeaders: ResponseStep = {
  name: 'transform_response_headers',
  head(ctx: ProxyContext, head: ResponseHead): void {
    if (head.origin !== 'upstream' || !ctx.version) return;
    const rule = endpointRule(ctx.version.responseHeaders, ctx);
    if (rule) apply(rule, ctx, head.headers);
  },
};

export const transformRequestHeadersStep: StepDescriptor = {
  name: 'transform-request-headers',
  enabledFor: (api) => anyVersion(api, (v) => v.requestHeaders.length > 0),
  build: () => ({ request: transformRequestHeaders }),
};

export const transformResponseHeadersStep: StepDescriptor = {
  name: 'transform-response-headers',
  enabledFor: (api) => anyVersion(api, (v) => v.responseHeaders.length > 0),
  build: () => ({ response: transformResponseHeaders }),
};
