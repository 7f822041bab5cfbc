// Chooses the API version a request is for (definition.location: header, url-param or the first path segment
// after the listen path), applies the default and fallback rules, refuses expired and unknown versions with Tyk's
//  messages, and strips the version from the request when strip_versioning_data is set.
import type { VersioningSpec } from '../../definition/api-spec.ts';
import type { ProxyContext, Step } from '../../pipeline/contract.ts';
import { Messages, writeError } from '../../pipeline/error-reply.ts';
import type { PipelineServices } from '../../pipeline/services.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

export function selectVersion(services: PipelineServices): Step {
  const hideGenerator = services.config.hide_generator_header;
  return (ctx) => {
    const { versioning, versions } = ctx.api.spec;
    let name = versioning.notVersioned ? versioning.defaultVersion : requestedVersion(ctx);
    if (!name) name = versioning.defaultVersion;
    if (!name) {
      writeError(ctx.req, ctx.res, 403, Messages.versionMissing, { hideGenerator });
      return true;
    }
    let version = versions.get(name);
    if (!version && versioning.fallbackToDefault && versioning.defaultVersion) version = versions.get(versioning.defaultVersion);
    if (!version) {
      writeError(ctx.req, ctx.res, 403, Messages.versionUnknown, { hideGenerator });
      return true;
    }
    if (version.expiresAt !== undefined && services.now() >= version.expiresAt) {
      writeError(ctx.req, ctx.res, 403, Messages.versionExpired, { hideGenerator });
      return true;
    }
    ctx.version = version;
    if (!versioning.notVersioned && versioning.stripVersioningData) stripVersion(ctx, versioning);
    return false;
  };
}

function requestedVersion(ctx: ProxyContext): string | undefined {
  const { location, key } = ctx.api.spec.versioning;
  if (location === 'header') {
    const value = ctx.req.headers[key.toLowerCase()];
    return (Array.isArray(value) ? value[0] : value) || undefined;
  }
  if (location === 'url-param') return new URLSearchParams(ctx.query).get(key) || undefined;
  return ctx.relPath.split('/')[1] || undefined;
}

/** Removes the version the request named (header, query parameter or first path segment) before it goes on. */
export function stripVersion(ctx: ProxyContext, { location, key }: Pick<VersioningSpec, 'location' | 'key'>): void {
  if (location === 'header') {
    delete ctx.req.headers[key.toLowerCase()];
  } else if (location === 'url-param') {
    const params = new URLSearchParams(ctx.query);
    params.delete(key);
    const rest = params.toString();
    ctx.query = rest ? `?${rest}` : '';
  } else {
    const segment = ctx.relPath.split('/')[1] ?? '';
    const shortened = ctx.relPath.slice(segment.length + 1) || '/';
    const prefix = ctx.path.slice(0, ctx.path.length - ctx.relPath.length);
    ctx.relPath = shortened;
    ctx.path = prefix === '/' ? shortened : `${prefix}${shortened}`;
  }
}

/** Every API: later steps read the version it chooses. */
export const versionStep: StepDescriptor = {
  name: 'version',
  enabledFor: () => true,
  build: (_api, services) => ({ request: selectVersion(services) }),
};
