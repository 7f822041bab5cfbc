// Header transforms of a definition -> HeaderTransformRule (Classic extended_paths.transform_headers /
// transform_response_headers `{path, method, delete_headers, add_headers}`, OAS transformRequestHeaders /
// transformResponseHeaders `{enabled, add: [{name, value}], remove}`): names lower-cased, values parsed once for
// variables (variable-text.ts). A header name that HTTP cannot carry refuses the API, naming the field.
import { headerNameProblem, headerValueProblem } from '../../domain/header-rules.ts';
import { DefinitionError } from './api-spec.ts';
import type { HeaderTransformRule } from './version-spec.ts';
import { compilePathPattern } from './path-pattern.ts';
import { parseVariableText } from './variable-text.ts';

export interface HeaderTransformSource {
  path: string;
  method: string;
  /** Each with the field that names it in errors. */
  remove: readonly { name: string; field: string }[];
  add: readonly { name: string; value: string; field: string; valueField: string }[];
}

export function compileHeaderTransform(source: HeaderTransformSource): HeaderTransformRule {
  const name = (value: string, field: string): string => {
    const problem = headerNameProblem(value);
    if (problem) throw new DefinitionError(`${field} ${problem}`);
    return value.toLowerCase();
  };
  return {
    pattern: compilePathPattern(source.path),
    method: source.method.toUpperCase(),
    remove: source.remove.map((header) => name(header.name, header.field)),
    add: source.add.map((header) => {
      const problem = headerValueProblem(header.value);
      if (problem) throw new DefinitionError(`${header.valueField}: ${problem}`);
      return { name: name(header.name, header.field), value: parseVariableText(header.value) };
    }),
  };
}
