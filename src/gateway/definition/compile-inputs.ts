// What one API's compilation read besides its definition, so that a reload may keep the compiled API only while
// those inputs are unchanged (../compiled-apis.ts): the files it read (body transform templates, JavaScript plugin
// sources), each by path and the SHA-256 of its content, and what must be redone when the compiled API is kept
// instead of compiled again (its templates marked in use, so releaseUnusedTemplates keeps them).
// Compilation is synchronous: the inputs of the API being compiled are the ones recorded, one API at a time.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface CompileInputs {
  /** Path -> SHA-256 (hex) of the content read. */
  readonly files: Map<string, string>;
  /** Run, in order, each time the compiled API is kept by a reload. */
  readonly onReuse: (() => void)[];
}

let recording: CompileInputs | undefined;

/** Runs one API's compilation and answers what it read; an exception passes through (nothing is kept of it). */
export function recordInputs<T>(compile: () => T): { value: T; inputs: CompileInputs } {
  const outer = recording;
  const inputs: CompileInputs = { files: new Map(), onReuse: [] };
  recording = inputs;
  try {
    return { value: compile(), inputs };
  } finally {
    recording = outer;
  }
}

/** A file a definition names (a template, a plugin source), read as UTF-8 and recorded as an input. */
export function readDefinitionFile(path: string): string {
  const text = readFileSync(path, 'utf8');
  recording?.files.set(path, digestOf(text));
  return text;
}

/** Something the compiled API needs redone when a reload keeps it (outside a recording: nothing). */
export function whenReused(redo: () => void): void {
  recording?.onReuse.push(redo);
}

/** Whether every recorded file still has the content it had (an unreadable one has not). */
export function filesUnchanged(files: ReadonlyMap<string, string>): boolean {
  for (const [path, digest] of files) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return false;
    }
    if (digestOf(text) !== digest) return false;
  }
  return true;
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
