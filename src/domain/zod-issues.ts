// The one way a zod refusal is put into words, for every service, the config reader, the importers and the
// webhook (which adapts it to Kubernetes field errors): one `field: message` per issue, joined by `; `. Fields are
// written `spec.paths[2].name`; an unknown field is named by itself (`colour: unknown field`); the whole value is
// `(root)` unless the caller names it. zod only, like the rest of api/.
import type { z } from 'zod';

export interface IssueWording {
  /** Path of the parsed value inside a larger document, prepended to every field (`proxy`). Default none. */
  prefix?: string;
  /** What to call the value itself when an issue is about all of it. Default `(root)`. */
  root?: string;
  /** At most this many issues are worded (the rest are counted). Default all. */
  limit?: number;
}

/** One line naming each offending field: `values[2]: "Tier 1" is listed twice; colour: unknown field`. */
export function describeIssues(error: z.ZodError, wording: IssueWording = {}): string {
  const lines = issueLines(error, wording);
  const shown = wording.limit === undefined ? lines : lines.slice(0, wording.limit);
  const more = lines.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

/** The same, one `field: message` per entry (for callers that list problems). */
export function issueLines(error: z.ZodError, wording: Omit<IssueWording, 'limit'> = {}): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${fieldName([...issue.path, key], wording)}: unknown field`);
    return [`${fieldName(issue.path, wording)}: ${issue.message}`];
  });
}

/** `a.b[2].c` for a zod path (under the prefix), or the root's name for an empty one. */
export function fieldName(path: readonly PropertyKey[], wording: IssueWording = {}): string {
  const field = path.reduce<string>(
    (written, part) => (typeof part === 'number' ? `${written}[${part}]` : written ? `${written}.${String(part)}` : String(part)),
    wording.prefix ?? '',
  );
  return field || (wording.root ?? '(root)');
}
