// Response body transforms (Classic transform_response with response_processors response_body_transform, OAS
// transformResponseBody): the upstream's answer to a request matching a rule of the version (method and path)
// is buffered (at most transform_max_body_bytes: beyond, 502 `Upstream response is too large to transform` and the
// upstream call is stopped), decoded as the rule's format and run through its compiled Go template with
// `._gw_meta` (enable_session, a key known) and `._gw_context` (the API enables context variables), like the
// request transform; the client gets the output with its Content-Length. Only upstream answers with a body are
// transformed: mocks, the gateway's errors, HEAD, 204 and 304 stream as they are.
//
// Encoding: for a matching request the upstream is asked for an unencoded body (Accept-Encoding removed by the
// request step); an upstream that encodes all the same (Content-Encoding other than identity) has its answer
// passed through untransformed, with a warning naming the encoding (never decompressed here).
//
// Failures (a body not in the declared format, a template error, transform_timeout_ms exceeded): 500 `Body
// transform failure`, logged with the template's error, never the body or the context.
import type { ProxyContext, ResponseHead, ResponseStep, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { TemplateExecuteError } from '../../template/engine.ts';
import { templateExecutor } from '../../template/executor.ts';
import { templateExtras } from './template-extras.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

export const RESPONSE_TOO_LARGE = 'Upstream response is too large to transform';

/**
 * Request step: finds the endpoint's response transform once (kept as ctx.responseBodyTransform for the response
 * step), and asks the upstream for an unencoded answer to it.
 */
export const requestIdentityEncoding: Step = (ctx) => {
  const rule = endpointRule(ctx.version!.responseBodyTransforms, ctx);
  if (rule) {
    ctx.responseBodyTransform = rule;
    delete ctx.req.headers['accept-encoding'];
  }
  return false;
};

export function transformResponseBody(services: PipelineServices): ResponseStep {
  const hideGenerator = services.config.hide_generator_header;
  const maxBytes = services.config.transform_max_body_bytes;
  const timeoutMs = services.config.transform_timeout_ms;
  return {
    name: 'transform_response',
    head() {},
    body(ctx: ProxyContext, head: ResponseHead) {
      const rule = ctx.responseBodyTransform;
      if (!rule || head.origin !== 'upstream' || ctx.method === 'HEAD' || head.status === 204 || head.status === 304) return undefined;
      const encoding = head.headers['content-encoding'];
      if (encoding !== undefined && String(encoding).toLowerCase() !== 'identity') {
        ctx.api.log.warn(
          { api_id: ctx.api.spec.id, template: rule.template.name, encoding: String(encoding) },
          'response body transform skipped: the upstream body is encoded',
        );
        return undefined;
      }
      return {
        maxBytes,
        tooLarge: () => writeError(ctx.req, ctx.res, 502, RESPONSE_TOO_LARGE, { hideGenerator }),
        rewrite: (body: Buffer) => {
          return templateExecutor()
            .execute(rule.template, body, rule.format, templateExtras(ctx, rule), timeoutMs)
            .then(
              (output): Buffer | undefined => output,
              (error: unknown) => {
                if (!(error instanceof TemplateExecuteError)) throw error;
                ctx.api.log.error({ api_id: ctx.api.spec.id, template: rule.template.name, err: error.message }, 'Body transform failure');
                if (!ctx.res.destroyed) writeError(ctx.req, ctx.res, 500, Messages.bodyTransformFailed, { hideGenerator });
                return undefined;
              },
            );
        },
      };
    },
  };
}

/** The request asks for an identity-encoded answer (so the rewrite reads plain bytes); the response step rewrites it. */
export const transformResponseBodyStep: StepDescriptor = {
  name: 'transform-response-body',
  enabledFor: (api) => anyVersion(api, (v) => v.responseBodyTransforms.length > 0),
  build: (_api, services) => ({ request: requestIdentityEncoding, response: transformResponseBody(services) }),
};
