// The admission webhook's check of JavaScript plugins (custom_middleware with driver otto, extended_paths.virtual):
// what the gateway refuses at load (api/js-plugins.ts pluginProblem: names, source types, blobs that
// are not base64, syntax errors, sizes), reported on the same field. Plugin files are on the gateway's disk: their
// existence is checked by the gateway only.
import { pluginProblem } from '../../api/js-plugins.ts';
import { childPath, invalid, type FieldError } from './field-errors.ts';

export function checkPlugins(spec: Record<string, unknown>, base: string): FieldError[] {
  const problem = pluginProblem(spec);
  return problem ? [invalid(childPath(base, problem.field), '(plugin)', problem.problem)] : [];
}
