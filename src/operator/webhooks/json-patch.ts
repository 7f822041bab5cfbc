// RFC 6902 JSON Patch operations, as a mutating webhook returns them (base64 in the AdmissionResponse), and RFC
// 6901 pointers to build their paths. `add` needs the parent to exist, so defaulters add whole missing parents
// rather than leaves below them.

export type PatchOperation = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

/** `/spec/auth_configs/authToken` from segments; `~` and `/` inside a segment are escaped. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Applies `add`/`replace`/`remove` to a copy of `document`: what the apiserver will do with the patch (tests use it). */
export function applyPatch<T>(document: T, operations: PatchOperation[]): T {
  const root = structuredClone(document) as unknown;
  for (const operation of operations) {
    const segments = operation.path
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = segments.pop();
    if (last === undefined) throw new Error(`cannot patch the root: ${operation.path}`);
    let parent = root as Record<string, unknown>;
    for (const segment of segments) {
      const next = parent[segment];
      if (typeof next !== 'object' || next === null) throw new Error(`${operation.path}: parent ${segment} does not exist`);
      parent = next as Record<string, unknown>;
    }
    if (operation.op === 'remove') delete parent[last];
    else parent[last] = structuredClone(operation.value);
  }
  return root as T;
}
