// Tyk's OAS versioning on a base API (info.versioning, definition/oas-versioning.ts): the version a request names
// (header `key`, query parameter `key`, or the first path segment after the listen path, which must match
// urlVersioningPattern when one is set), else the default, decides which API serves it. The base API's own name
// (or `self`) continues through the base's pipeline; another listed version is handed, whole, to that API's
// pipeline (its authentication, limits, upstream), as Tyk Gateway routes it internally by id. Answers as Tyk's
// VersionCheck: no version and no default 403 `Version information not found`; a version not listed (unless
// fallbackToDefault) or whose API is not loaded 404 `This API version does not seem to exist`. With
// stripVersioningData the version is removed from the request first.
import type { ChildVersioning } from '../../definition/api-spec.ts';
import { SELF_VERSION } from '../../definition/oas-versioning.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import { stripVersion } from './version.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

export function routeToVersion(versioning: ChildVersioning, services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    if (ctx.handedOff) return false; // a version's API that is itself a base serves the request: no loop between bases
    const requested = requestedVersion(ctx, versioning);
    let name = requested || versioning.defaultVersion;
    if (!name) {
      writeError(ctx.req, ctx.res, 403, Messages.versionMissing, { hideGenerator });
      return true;
    }
    if (!isSelf(name, versioning) && !versioning.versions.has(name) && versioning.fallbackToDefault && versioning.defaultVersion)
      name = versioning.defaultVersion;
    if (requested && versioning.stripVersioningData) stripVersion(ctx, versioning);
    if (isSelf(name, versioning)) return false;
    const apiId = versioning.versions.get(name);
    if (apiId === undefined || apiId === ctx.api.spec.id || !services.handOff?.(ctx, apiId)) {
      writeError(ctx.req, ctx.res, 404, Messages.versionUnknown, { hideGenerator });
    }
    return true;
  };
}

function isSelf(name: string, versioning: ChildVersioning): boolean {
  return name === versioning.name || name === SELF_VERSION;
}

function requestedVersion(ctx: ProxyContext, { location, key, urlPattern }: ChildVersioning): string | undefined {
  if (location === 'header') {
    const value = ctx.req.headers[key.toLowerCase()];
    return (Array.isArray(value) ? value[0] : value) || undefined;
  }
  if (location === 'url-param') return new URLSearchParams(ctx.query).get(key) || undefined;
  const segment = ctx.relPath.split('/')[1];
  return segment && (!urlPattern || urlPattern.test(segment)) ? segment : undefined;
}

export const versionRoutingStep: StepDescriptor = {
  name: 'version-routing',
  enabledFor: (api) => api.childVersions !== undefined,
  build: (api, services) => ({ request: routeToVersion(api.childVersions!, services) }),
};
