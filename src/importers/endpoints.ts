// Imported endpoints -> a version's extended_paths. Every endpoint goes into white_list (so the version allows
// exactly what the document describes; anything else is answered 403 `Requested endpoint is forbidden`), one entry
// per path with a method_actions entry per method: `no_action` passes the request to the upstream, `reply`
// answers with the mock. The gateway takes the FIRST entry matching a request and a `{name}` wildcard matches
// anything, `/` included, so entries are ordered most specific first (more literal characters, then fewer
// wildcards): `/pet/findByStatus` and `/pet/{petId}/uploadImage` come before `/pet/{petId}`.
import type { EndpointMeta, ExtendedPaths } from '../domain/classic.ts';
import type { ImportedEndpoint } from './imported-api.ts';

type MethodActions = NonNullable<EndpointMeta['method_actions']>;

export function toExtendedPaths(endpoints: readonly ImportedEndpoint[]): { extendedPaths: ExtendedPaths; warnings: string[] } {
  const warnings: string[] = [];
  const byPath = new Map<string, MethodActions>();
  for (const endpoint of endpoints) {
    const actions = byPath.get(endpoint.path) ?? {};
    byPath.set(endpoint.path, actions);
    if (actions[endpoint.method]) {
      warnings.push(`${endpoint.method} ${endpoint.path} is described more than once: the first description is used`);
      continue;
    }
    actions[endpoint.method] = endpoint.reply
      ? { action: 'reply', code: endpoint.reply.code, data: endpoint.reply.body, headers: endpoint.reply.headers }
      : { action: 'no_action' };
  }
  const entries = [...byPath].map(([path, method_actions]) => ({ path, method_actions }));
  entries.sort((a, b) => specificity(b.path) - specificity(a.path));
  return { extendedPaths: { white_list: entries }, warnings };
}

/** Literal characters outweigh wildcards; between equal literals, fewer wildcards is more specific. */
function specificity(path: string): number {
  const wildcards = path.match(/\{[^}]*\}/g) ?? [];
  const literal = path.length - wildcards.reduce((sum, w) => sum + w.length, 0);
  return literal * 100 - wildcards.length;
}
