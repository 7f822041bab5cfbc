// JavaScript plugins (custom_middleware with driver otto, extended_paths.virtual): what the gateway refuses at load
// (domain/js-plugins.ts pluginProblem: names, source types, blobs that are not base64, syntax errors, sizes),
// reported on the same field by the admission webhook, the dashboard's API writes and the gateway's loader. Plugin
// files are on the gateway's disk: their existence is checked by the gateway only (gateway/plugins/plugin-spec.ts).
// OAS definitions: plugins are built for Classic definitions only, so one using them is refused naming the field.
import { oasPluginField, pluginProblem } from '../domain/js-plugins.ts';
import { GW_EXTENSION } from '../domain/oas.ts';
import { childPath, forbidden, invalid, type RuleProblem } from './problems.ts';

export function checkPlugins(spec: Record<string, unknown>, base: string): RuleProblem[] {
  const problem = pluginProblem(spec);
  return problem ? [invalid(childPath(base, problem.field), '(plugin)', problem.problem)] : [];
}

/** An OAS document's gateway extension (`x-gw-api-gateway`) using JavaScript plugins: refused, naming the field. */
export function checkOasPlugins(extension: unknown): RuleProblem[] {
  const field = oasPluginField(extension);
  if (!field) return [];
  return [
    forbidden(
      childPath(GW_EXTENSION, field),
      'JavaScript plugins in OAS definitions are not supported by this gateway yet (Classic custom_middleware and virtual endpoints are)',
    ),
  ];
}
