// Request body size limits: the smallest of the gateway-wide max_request_body_size, the version's
// global_size_limit and the endpoint's size_limits / requestSizeLimit rule (0 or absent: no limit from that
// source). Over it: 413 `Request is too large`, with Connection: close (the rest of the body is never read).
// A Content-Length is checked up front, without reading anything (node's parser then holds the body to that
// length); a body without one (chunked) is counted as it is read, into memory up to the limit at most
// (pipeline/request-body.ts; past it, up to 64 KiB more is read and discarded so the client reads the 413, then
// it is cut); within the limit it is forwarded from memory.
// Runs after authentication and rate limits (Tyk's order): a refused request's body is never read.
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { refuseTooLarge, withRequestBody } from '../../pipeline/request-body.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

export function requestSizeLimit(services: PipelineServices): Step {
  const gatewayLimit = services.config.max_request_body_size;
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const limit = limitFor(ctx, gatewayLimit);
    if (limit === undefined) return false;
    if (ctx.body !== undefined) return ctx.body.length > limit ? refuseTooLarge(ctx, hideGenerator) : false;
    const declared = ctx.req.headers['content-length'];
    if (declared !== undefined) return Number(declared) > limit ? refuseTooLarge(ctx, hideGenerator) : false;
    if (ctx.req.headers['transfer-encoding'] === undefined) return false;
    return withRequestBody(ctx, limit, hideGenerator, () => false);
  };
}

function limitFor(ctx: ProxyContext, gatewayLimit: number): number | undefined {
  const version = ctx.version!;
  let limit = gatewayLimit > 0 ? gatewayLimit : undefined;
  const tighten = (bytes: number | undefined): void => {
    if (bytes !== undefined && bytes > 0 && (limit === undefined || bytes < limit)) limit = bytes;
  };
  tighten(version.globalSizeLimit);
  tighten(endpointRule(version.sizeLimits, ctx)?.bytes);
  return limit;
}

export const requestSizeLimitStep: StepDescriptor = {
  name: 'request-size-limit',
  enabledFor: (api, services) => services.config.max_request_body_size > 0 || anyVersion(api, (v) => v.sizeLimits || v.globalSizeLimit),
  build: (_api, services) => ({ request: requestSizeLimit(services) }),
};
