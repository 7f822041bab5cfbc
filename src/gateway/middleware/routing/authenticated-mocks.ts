// OAS mockResponse: answered after authentication and limits (Tyk's order for OAS APIs), so mocked
// endpoints still need a key and count against its rate limit and quota.
import type { Step } from '../../pipeline/contract.ts';
import { matchEntry, writeMock } from './mock-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { anyVersion, type StepDescriptor } from '../../pipeline/step.ts';

export function authenticatedMocks(_services: PipelineServices): Step {
  return (ctx) => {
    const entry = matchEntry(ctx.version!.authenticatedMocks, ctx.relPath, ctx.method);
    const reply = entry?.replies.get(ctx.method);
    if (!reply) return false;
    writeMock(ctx, reply);
    return true;
  };
}

export const authenticatedMocksStep: StepDescriptor = {
  name: 'mock-response',
  enabledFor: (api) => anyVersion(api, (v) => v.authenticatedMocks.length > 0),
  build: (_api, services) => ({ request: authenticatedMocks(services) }),
};
