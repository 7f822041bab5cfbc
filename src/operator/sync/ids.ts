// Deterministic ids (docs/architecture.md §4): an API or policy id is base64url("namespace/name") unless its spec sets one,
// so a re-created resource keeps the id its keys reference, and a retry after a network error writes the same
// object instead of a duplicate.
export function idFor(namespace: string | undefined, name: string): string {
  return Buffer.from(`${namespace ?? ''}/${name}`).toString('base64url');
}
