// Tyk Operator's `rewrite_to_internal` (url_rewrites[] and their triggers) and `proxy.target_internal`: a loop into
// another ApiDefinition named by resource, `{target: {name, namespace}, path, query}`, which Tyk Operator writes as
// the looping URL `tyk://<the resource's API id><path>?<query>`. gw's operator ids are Tyk Operator's
// (base64url("namespace/name"), unpadded), so the same reference reaches the same API. The operator fills a missing
// namespace with the referring resource's (operator/translate/internal-loops.ts); the gateway, given one without,
// reads it as the empty namespace.
import { z } from 'zod';

export const InternalLoopTarget = z
  .object({
    target: z.object({
      name: z.string().min(1).describe('The ApiDefinition to loop into.'),
      namespace: z.string().optional().describe("Its namespace; default: the referring resource's."),
    }),
    path: z.string().optional().describe('The path on the target API (default /).'),
    query: z.string().optional().describe('Query added to the loop URL (e.g. check_limits=true, loop_limit=3, method=POST).'),
  })
  .describe("A loop into another ApiDefinition (Tyk Operator's form of tyk://<api id>/<path>).");
export type InternalLoopTarget = z.infer<typeof InternalLoopTarget>;

export function internalLoopUrl(ref: InternalLoopTarget, namespace = ''): string {
  const id = Buffer.from(`${ref.target.namespace ?? namespace}/${ref.target.name}`).toString('base64url');
  const path = ref.path ? (ref.path.startsWith('/') ? ref.path : `/${ref.path}`) : '/';
  return `tyk://${id}${path}${ref.query ? `?${ref.query.replace(/^\?/, '')}` : ''}`;
}
