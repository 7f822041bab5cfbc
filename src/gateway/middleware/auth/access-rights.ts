// Access rights of the authenticated key: the API must be in its (policy-merged) access_rights, the version in
// the right's `versions` (when listed), and the API-relative path in its allowed_urls (when listed, with methods,
// for every method the request claims: claimed-methods.ts).
// Refusals: 403 `Access to this API has been disallowed`, 403 `Access to this resource has been disallowed`.
import type { Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { claimedMethods } from './claimed-methods.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';
import { isAuthenticated } from './auth-modes.ts';

export function accessRights(services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    if (ctx.ignored || !ctx.key?.ok) return false;
    const apiId = ctx.api.spec.id;
    const access = ctx.key.effective.access.get(apiId);
    if (!access || (access.versions.length > 0 && !access.versions.includes(ctx.version!.name))) {
      writeError(ctx.req, ctx.res, 403, Messages.keyNotAuthorised, { hideGenerator });
      return true;
    }
    const urls = ctx.key.allowedUrls(apiId);
    const methods = claimedMethods(ctx.req, ctx.method);
    const allowed = (method: string): boolean => urls.some((u) => (u.methods.size === 0 || u.methods.has(method)) && u.pattern.test(ctx.relPath));
    if (urls.length > 0 && !methods.every(allowed)) {
      writeError(ctx.req, ctx.res, 403, Messages.resourceNotAllowed, { hideGenerator });
      return true;
    }
    ctx.access = access;
    return false;
  };
}

export const accessRightsStep: StepDescriptor = {
  name: 'access-rights',
  enabledFor: isAuthenticated,
  build: (_api, services) => ({ request: accessRights(services) }),
};
