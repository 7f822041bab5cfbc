// The version's global header edits (Classic global_headers / global_headers_remove, global_response_headers /
// global_response_headers_remove), compiled at load (definition/header-edits.ts). The request step edits the
// headers the upstream will be sent (forward.ts reads ctx.req.headers) just before forwarding, after
// authentication read its credentials; the response step edits the upstream's answer in the response phase, as
// Tyk's response middleware does (mocks and the gateway's own errors are left as they are).
// Removals first, then the set values. Never decides whether a request is served.
import type { HeaderEdits } from '../../definition/version-spec.ts';
import type { ResponseHead, ResponseStep, Step } from '../../pipeline/contract.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

function apply(edits: HeaderEdits, headers: Record<string, unknown>): void {
  for (const name of edits.remove) delete headers[name];
  for (const [name, value] of edits.set) headers[name] = value;
}

export const globalRequestHeaders: Step = (ctx) => {
  const edits = ctx.version?.globalRequestHeaders;
  if (edits) apply(edits, ctx.req.headers);
  return false;
};

export const globalResponseHeaders: ResponseStep = {
  name: 'global-response-headers',
  head(ctx, head: ResponseHead) {
    const edits = ctx.version?.globalResponseHeaders;
    if (edits && head.origin === 'upstream') apply(edits, head.headers);
  },
};

export const globalRequestHeadersStep: StepDescriptor = {
  name: 'global-request-headers',
  enabledFor: (api) => anyVersion(api, (v) => v.globalRequestHeaders),
  build: () => ({ request: globalRequestHeaders }),
};

export const globalResponseHeadersStep: StepDescriptor = {
  name: 'global-response-headers',
  enabledFor: (api) => anyVersion(api, (v) => v.globalResponseHeaders),
  build: () => ({ response: globalResponseHeaders }),
};
