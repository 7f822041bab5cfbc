// Request body transforms (Classic extended_paths.transform, OAS transformRequestBody): for a PUT, POST or PATCH
// matching a rule of the version, the body is read (at most transform_max_body_bytes: 413 `Request is too large`
// beyond, without reading further), decoded as the rule's format and run through its compiled Go template
// (in the native engine process, else on a WebAssembly worker thread; at most transform_timeout_ms: ../../template/runner.ts) with `._gw_meta` (the key's meta_data, when enable_session and a key is known) and
// `._gw_context` (context-variables.ts, when the API enables context variables); the output becomes the body the
// upstream receives (ctx.body, with its Content-Length). Requests no rule matches are untouched and still stream.
//
// Failures. A body that does not decode as the declared format is the client's: 400 naming the format. A template
// that fails while executing, or runs past transform_timeout_ms, answers 500 `Body transform failure` and logs Go's error (template name, line,
// column) — never the body or the context (they may carry credentials). Tyk logs the same line and lets the
// request go on, but its body has been consumed by then, so the upstream would get an empty body: an answer is
// better than a silently wrong request.
import type { BodyTransformRule } from '../../definition/version-spec.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import { withRequestBody } from '../../pipeline/request-body.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { BodyDecodeError, TemplateExecuteError } from '../../template/engine.ts';
import { templateExecutor } from '../../template/executor.ts';
import { templateExtras } from './template-extras.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

export function transformRequestBody(services: PipelineServices): Step {
  const maxBytes = services.config.transform_max_body_bytes;
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const rule = endpointRule(ctx.version!.bodyTransforms, ctx);
    if (!rule) return false;
    return withRequestBody(ctx, maxBytes, hideGenerator, (body) => apply(ctx, rule, body, services));
  };
}

/** Runs the template; true when the request was answered (an error), false when it goes on with ctx.body set. */
function apply(ctx: ProxyContext, rule: BodyTransformRule, body: Buffer, services: PipelineServices): Promise<boolean> {
  return templateExecutor()
    .execute(rule.template, body, rule.format, templateExtras(ctx, rule), services.config.transform_timeout_ms)
    .then(
      (output) => {
        ctx.body = output;
        return false;
      },
      (error: unknown) => failed(ctx, rule, error, services.config.hide_generator_header),
    );
}

function failed(ctx: ProxyContext, rule: BodyTransformRule, error: unknown, hideGenerator: boolean): boolean {
  if (error instanceof BodyDecodeError) {
    writeError(ctx.req, ctx.res, 400, rule.format === 'json' ? Messages.bodyNotJson : Messages.bodyNotXml, { hideGenerator });
    return true;
  }
  if (!(error instanceof TemplateExecuteError)) throw error;
  ctx.api.log.error({ api_id: ctx.api.spec.id, template: rule.template.name, err: error.message }, 'Body transform failure');
  writeError(ctx.req, ctx.res, 500, Messages.bodyTransformFailed, { hideGenerator });
  return true;
}

export const transformRequestBodyStep: StepDescriptor = {
  name: 'transform-request-body',
  enabledFor: (api) => anyVersion(api, (v) => v.bodyTransforms.length > 0),
  build: (_api, services) => ({ request: transformRequestBody(services) }),
};
