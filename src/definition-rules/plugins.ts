// JavaScript plugins (custom_middleware with driver otto, extended_paths.virtual): what the gateway refuses at load
// (domain/js-plugins.ts pluginProblem: names, source types, blobs that are not base64, syntax errors, sizes),
// reported on the same field by the admission webhook, the dashboard's API writes and the gateway's loader. Plugin
// files are on the gateway's disk: their existence is checked by the gateway only (gateway/plugins/plugin-spec.ts).
// OAS definitions: their plugin fields read as Classic ones (domain/oas-plugins.ts) with the same rules, named as
// written; what the gateway cannot serve (Go plugins, bundles, custom authentication) is refused by name.
import { pluginProblem } from '../domain/js-plugins.ts';
import { oasPluginProblem, oasPluginRefusal } from '../domain/oas-plugins.ts';
import { GW_EXTENSION } from '../domain/oas.ts';
import { childPath, forbidden, invalid, type RuleProblem } from './problems.ts';

export function checkPlugins(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const problem = pluginProblem(spec);
  return problem ? [invalid(childPath(base, problem.field), '(plugin)', problem.problem)] : [];
}

/** An OAS document's gateway extension (`x-gw-api-gateway`): its plugin fields, refused naming the field. */
export function checkOasPlugins(extension: unknown): RuleProblem[] {
  const refusal = oasPluginRefusal(extension);
  if (refusal) return [forbidden(childPath(GW_EXTENSION, refusal.field), refusal.message)];
  const problem = oasPluginProblem(extension);
  return problem ? [invalid(childPath(GW_EXTENSION, problem.field), '(plugin)', problem.problem)] : [];
}
