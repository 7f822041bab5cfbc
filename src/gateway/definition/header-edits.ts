// Compiles a version's global header edits (Classic global_headers / global_headers_remove and
// global_response_headers / global_response_headers_remove) into HeaderEdits, once at load: names lower-cased,
// names and values checked by api/header-rules.ts (refused naming the field), so a request never carries a header
// node:http would refuse to send, nor a context variable sent literally.
import { globalHeaderValueProblem, headerNameProblem } from '../../domain/header-rules.ts';
import { DefinitionError } from './api-spec.ts';
import type { HeaderEdits } from './version-spec.ts';

/** Undefined when there is nothing to edit (the step then stays out of the pipeline). */
export function compileHeaderEdits(
  set: Record<string, string> | undefined,
  remove: string[] | undefined,
  field: { set: string; remove: string },
): HeaderEdits | undefined {
  const edits: HeaderEdits = { remove: [], set: [] };
  for (const [index, name] of (remove ?? []).entries()) edits.remove.push(headerName(name, `${field.remove}[${index}]`));
  for (const [name, value] of Object.entries(set ?? {})) {
    const at = `${field.set}.${name}`;
    const problem = globalHeaderValueProblem(value);
    if (problem) throw new DefinitionError(`${at} ${problem}`);
    edits.set.push([headerName(name, at), value]);
  }
  return edits.remove.length + edits.set.length > 0 ? edits : undefined;
}

function headerName(name: string, field: string): string {
  const problem = headerNameProblem(name);
  if (problem) throw new DefinitionError(`${field} ${problem}`);
  return name.toLowerCase();
}
