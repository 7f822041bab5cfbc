// JavaScript plugins (custom_middleware with driver otto, extended_paths.virtual): what the gateway refuses at load
// (domain/js-plugins.ts pluginProblem: names, source types, blobs that are not base64, syntax errors, sizes),
// reported on the same field by the admission webhook and the gateway's loader. Plugin files are on the gateway's
// disk: their existence is checked by the gateway only (gateway/plugins/plugin-spec.ts).
import { pluginProblem } from '../domain/js-plugins.ts';
import { childPath, invalid, type RuleProblem } from './problems.ts';

export function checkPlugins(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const problem = pluginProblem(spec);
  return problem ? [invalid(childPath(base, problem.field), '(plugin)', problem.problem)] : [];
}
