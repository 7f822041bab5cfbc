// A configured string that may name request variables (`$gw_context.<name>`, `$gw_meta.<name>`, and Tyk's
// spellings `$tyk_context.<name>` / `$tyk_meta.<name>`, which users' definitions carry), split once at load into
// literal text and variable references. Rendering needs the request and lives in
// ../middleware/transforms/render-variables.ts; this file only parses and never reads a request.
export type VariablePart = string | { readonly source: 'context' | 'meta'; readonly name: string };

/** Parts in order; a text without variables is one literal part (rendered without building any variables). */
export interface VariableText {
  readonly parts: readonly VariablePart[];
  /** True when a part references the request's context variables (the API must enable them to see values). */
  readonly usesContext: boolean;
}

// Tyk's variable name alphabet (mw_url_rewrite.go): letters, digits, '_', '-', '.'.
const VARIABLE = /\$(?:gw|tyk)_(context|meta)\.([A-Za-z0-9_.-]+)/g;

export function parseVariableText(text: string): VariableText {
  const parts: VariablePart[] = [];
  let usesContext = false;
  let at = 0;
  for (const match of text.matchAll(VARIABLE)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    const source = match[1] === 'meta' ? 'meta' : 'context';
    if (source === 'context') usesContext = true;
    parts.push({ source, name: match[2]! });
    at = match.index + match[0].length;
  }
  if (at < text.length || parts.length === 0) parts.push(text.slice(at));
  return { parts, usesContext };
}
