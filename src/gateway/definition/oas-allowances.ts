// Compiles Tyk OAS's per-operation allowances, once at load: operations.<id>.allow, .block and
// .ignoreAuthentication {enabled, ignoreCase} are the Classic white_list, black_list and ignored entries of the
// operation's path and method (Tyk's apidef/oas turns them into exactly those), so they match as those do: a block
// covers every spelling and sub-resource of its path and HEAD with GET; allow and ignore the path itself, its
// `{name}` one segment, never another operation's concrete path (oas-operation-pattern.ts).
import { operationsById, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import { configuredOperations } from '../../definition-rules/oas-definition.ts';
import type { EndpointEntry, VersionSpec } from './version-spec.ts';
import { compileResourcePattern } from './path-pattern.ts';
import { compileOperationPattern } from './oas-operation-pattern.ts';

export type OasAllowances = Pick<VersionSpec, 'whiteList' | 'blackList' | 'ignored'>;

/** Operations are found by operationId in `paths` (an unknown one is refused by from-oas.ts's compileOperations). */
export function oasAllowances(doc: OasDocument, ext: GwExtension): OasAllowances {
  const allowances: OasAllowances = { whiteList: [], blackList: [], ignored: [] };
  const known = operationsById(doc);
  for (const [operationId, operation] of Object.entries(configuredOperations(ext))) {
    const target = known.get(operationId);
    if (!target) continue;
    const lists = [
      [operation.allow, 'whiteList'],
      [operation.block, 'blackList'],
      [operation.ignoreAuthentication, 'ignored'],
    ] as const;
    for (const [allowance, list] of lists) {
      if (!allowance?.enabled) continue;
      const block = list === 'blackList';
      const methods = new Set([target.method]);
      // Upstreams answer HEAD as a GET without the body: blocking GET must block HEAD.
      if (block && target.method === 'GET') methods.add('HEAD');
      const pattern = block ? compileResourcePattern(target.path) : compileOperationPattern(target.path, allowance.ignoreCase ?? false, Object.keys(doc.paths));
      const entry: EndpointEntry = { pattern, methods, replies: new Map() };
      allowances[list].push(entry);
    }
  }
  return allowances;
}
