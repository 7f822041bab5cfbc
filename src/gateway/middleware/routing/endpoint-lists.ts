// The version's endpoint lists, before authentication (Classic semantics): a black_list entry answers 403
// `Requested endpoint is forbidden`; an `ignored` entry lets the request through without authentication, rate
// limit or quota; when a white_list exists, anything it does not list (and `ignored` does not) is forbidden.
// Any matching entry whose method_actions say `reply` answers with its mock instead, before authentication.
// Each rule holds for every method the request claims (claimed-methods.ts): blocked if any is, ignored or allowed
// only if all are.
import type { Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { claimedMethods } from '../auth/claimed-methods.ts';
import type { EndpointEntry } from '../../definition/version-spec.ts';
import { matchEntry, writeMock } from './mock-reply.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

export function endpointLists(services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const version = ctx.version!;
    const methods = claimedMethods(ctx.req, ctx.method);
    const black = matchingAnyMethod(version.blackList, ctx.relPath, methods);
    if (black) {
      const reply = black.replies.get(ctx.method);
      if (reply) writeMock(ctx, reply);
      else writeError(ctx.req, ctx.res, 403, Messages.endpointForbidden, { hideGenerator });
      return true;
    }
    const ignored = matchingEveryMethod(version.ignored, ctx.relPath, methods);
    const white = ignored ? undefined : matchingEveryMethod(version.whiteList, ctx.relPath, methods);
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

/** The entry matching the request's own method, when entries also match each method it claims. */
function matchingEveryMethod(entries: readonly EndpointEntry[], path: string, methods: readonly string[]): EndpointEntry | undefined {
  const entry = matchEntry(entries, path, methods[0]!);
  return entry && methods.every((method) => matchEntry(entries, path, method) !== undefined) ? entry : undefined;
}

/** The first entry matching one of the claimed methods. */
function matchingAnyMethod(entries: readonly EndpointEntry[], path: string, methods: readonly string[]): EndpointEntry | undefined {
  for (const method of methods) {
    const entry = matchEntry(entries, path, method);
    if (entry) return entry;
  }
  return undefined;
}

export const endpointListsStep: StepDescriptor = {
  name: 'endpoint-lists',
  enabledFor: (api) => anyVersion(api, (v) => v.whiteList.length + v.blackList.length + v.ignored.length > 0),
  build: (_api, services) => ({ request: endpointLists(services) }),
};
