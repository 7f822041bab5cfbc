// Where a field is in the editor's text: the definition is JSON or YAML (JSON is YAML 1.2, so one parser with
// source ranges serves both), and a path such as proxy.listen_path is walked through the document's nodes. A
// field that is missing (a required one) points at the nearest enclosing object that exists, so the error still
// appears where it must be added.
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

export interface TextRange {
  from: number;
  to: number;
}

function rangeOf(node: unknown, fallback: TextRange): TextRange {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? { from: range[0], to: Math.max(range[1], range[0] + 1) } : fallback;
}

export function locateField(text: string, path: (string | number)[]): TextRange {
  const whole: TextRange = { from: 0, to: Math.min(text.length, 1) };
  let document;
  try {
    document = parseDocument(text, { keepSourceTokens: false });
  } catch {
    return whole;
  }
  let node: unknown = document.contents;
  let found = rangeOf(node, whole);
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
      if (!pair) return found;
      // The key itself is where a reader looks; the value's range when the key has none.
      found = rangeOf(pair.key, rangeOf(pair.value, found));
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part] !== undefined) {
      node = node.items[part];
      found = rangeOf(node, found);
    } else {
      return found;
    }
  }
  return found;
}
