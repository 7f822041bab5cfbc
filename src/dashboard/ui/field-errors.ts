// The dashboard names the offending field in every refusal (`Request malformed: proxy.listen_path: Invalid input;
// name: Too small`, see src/domain/zod-issues.ts): this splits such a message into {field, message} pairs and a field
// into its path, so a form can show each error beside its input and the editor at the field's place in the text.
export interface FieldError {
  field: string;
  path: (string | number)[];
  message: string;
}

const PREFIXES = [/^Request malformed:\s*/, /^Document too large:\s*/];
// After the first segment, a key may hold `/`, `{` and `}` (an OAS operationId Tyk generates: `pets/{id}GET`).
const FIELD = /^((?:[A-Za-z_$][\w$-]*|\[\d+\])(?:\.[\w$/{}-]+|\[\d+\])*):\s+([\s\S]+)$/;

export function fieldErrorsOf(message: string): FieldError[] {
  let rest = message;
  for (const prefix of PREFIXES) rest = rest.replace(prefix, '');
  const errors: FieldError[] = [];
  for (const part of rest.split('; ')) {
    const match = FIELD.exec(part.trim());
    if (match) errors.push({ field: match[1]!, path: pathOf(match[1]!), message: match[2]! });
  }
  return errors;
}

/** `a.b[2].c` -> ['a', 'b', 2, 'c']. */
export function pathOf(field: string): (string | number)[] {
  const path: (string | number)[] = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) path.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return path;
}
