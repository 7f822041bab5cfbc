// The version's endpoint lists, before authentication (Classic semantics): a black_list entry answers 403
// `Requested endpoint is forbidden`; an `ignored` entry lets the request through without authentication, rate
// limit or quota; when a white_list exists, anything it does not list (and `ignored` does not) is forbidden.
// Any matching entry whose method_actions say `reply` answers with its mock instead, before authentication.
import type { Step } from '../pipeline/contract.ts';
import { Messages, writeError } from '../pipeline/error-reply.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import { matchEntry, writeMock } from './mock-reply.ts';

export function endpointLists(services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const version = ctx.version!;
    const black = matchEntry(version.blackList, ctx.relPath, ctx.method);
    if (black) {
      const reply = black.replies.get(ctx.method);
      if (reply) writeMock(ctx, reply);
      else writeError(ctx.req, ctx.res, 403, Messages.endpointForbidden, { hideGenerator });
      return true;
    }
    const ignored = matchEntry(version.ignored, ctx.relPath, ctx.method);
    const white = ignored ? undefined : matchEntry(version.whiteList, ctx.relPath, ctx.method);
    const reply = (ignored ?? white)?.replies.get(ctx.method);
    if (reply) {
      writeMock(ctx, reply);
      return true;
    }
    if (ignored) {
      ctx.ignored = true;
      return false;
    }
    if (version.whiteList.length > 0 && !white) {
      writeError(ctx.req, ctx.res, 403, Messages.endpointForbidden, { hideGenerator });
      return true;
    }
    return false;
  };
}
