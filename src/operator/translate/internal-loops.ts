// Tyk Operator's internal loops by resource (`rewrite_to_internal` in url_rewrites and their triggers,
// `proxy.target_internal`: ../../api/internal-loop-target.ts): a reference without a namespace means the referring
// ApiDefinition's, as with Tyk Operator. Filled in here so the gateway, which knows no namespaces, loops to the
// right API id. Copies: the resource's spec is never edited.
import type { Definition } from '../../mgmt/client.ts';

type Json = Record<string, unknown>;

export function withLoopNamespaces(payload: Definition, namespace: string | undefined): Definition {
  if (!namespace) return payload;
  const fill = (ref: unknown): void => {
    const target = isObject(ref) ? ref.target : undefined;
    if (isObject(target) && typeof target.namespace !== 'string') target.namespace = namespace;
  };
  const fillRewrites = (paths: unknown): void => {
    const rules = isObject(paths) ? paths.url_rewrites : undefined;
    for (const rule of Array.isArray(rules) ? rules : []) {
      if (!isObject(rule)) continue;
      fill(rule.rewrite_to_internal);
      for (const trigger of Array.isArray(rule.triggers) ? rule.triggers : []) if (isObject(trigger)) fill(trigger.rewrite_to_internal);
    }
  };
  const out = { ...payload };
  for (const field of ['proxy', 'extended_paths', 'version_data'] as const) if (out[field] !== undefined) out[field] = structuredClone(out[field]);
  if (isObject(out.proxy)) fill(out.proxy.target_internal);
  fillRewrites(out.extended_paths);
  const versions = isObject(out.version_data) ? out.version_data.versions : undefined;
  for (const version of isObject(versions) ? Object.values(versions) : []) if (isObject(version)) fillRewrites(version.extended_paths);
  return out;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
