// The Docker build context as `docker build .` sees it: the repository minus what .dockerignore excludes. Lists the
// files a COPY source names (a file, or a directory's files, recursively) and fingerprints them. Reads only.
// Supports the .dockerignore patterns the project uses (globs with `**`, directory names); a `!` exception is
// refused rather than half-understood.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, matchesGlob, posix } from 'node:path';

export interface ContextFile {
  /** Path relative to the context root, with `/`. */
  path: string;
  mode: number;
}

export class BuildContext {
  readonly #root: string;
  readonly #patterns: string[];

  constructor(root: string) {
    this.#root = root;
    let text = '';
    try {
      text = readFileSync(join(root, '.dockerignore'), 'utf8');
    } catch {
      // no .dockerignore: everything is in the context
    }
    this.#patterns = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        if (line.startsWith('!')) throw new Error(`.dockerignore: exceptions (${line}) are not supported by the registry-free image build`);
        return posix.normalize(line.replace(/^\/+/, '')).replace(/\/+$/, '');
      });
  }

  /** True when .dockerignore keeps this path (or one of its parent directories) out of the context. */
  ignored(path: string): boolean {
    const parts = path.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const prefix = parts.slice(0, depth).join('/');
      if (this.#patterns.some((pattern) => matchesGlob(prefix, pattern))) return true;
    }
    return false;
  }

  /** The context files a COPY source names, sorted; an empty list when the source is missing or ignored. */
  files(source: string): ContextFile[] {
    const start = posix.normalize(source).replace(/\/+$/, '');
    const found: ContextFile[] = [];
    const visit = (path: string): void => {
      if (this.ignored(path)) return;
      let stats;
      try {
        stats = statSync(join(this.#root, path));
      } catch {
        return;
      }
      if (stats.isDirectory()) {
        for (const entry of readdirSync(join(this.#root, path)).sort()) visit(`${path}/${entry}`);
      } else if (stats.isFile()) {
        found.push({ path, mode: stats.mode & 0o777 });
      }
    };
    visit(start);
    return found;
  }

  /** sha256 over the paths, modes and contents of the files: equal fingerprints, equal COPY results. */
  fingerprint(files: ContextFile[]): string {
    const hash = createHash('sha256');
    for (const file of files) {
      hash.update(`${file.path}\0${file.mode}\0`);
      hash.update(readFileSync(join(this.#root, file.path)));
    }
    return hash.digest('hex');
  }
}
