// A definition the gateway cannot serve, as a load reports it: where it came from, its id, why. Shared by the
// loader (loader.ts), the dashboard sync (dashboard-sync/sync.ts) and the management API's reload report
// (GET /gw/load-problems, read by the operator after each reload to put the refusal on the resource).
export interface LoadProblem {
  /** `store`, a file path, `dashboard`, or `routing`. */
  source: string;
  id?: string;
  /** Why, as one CamelCase word (the operator's condition reason): ListenPathConflict, DefinitionNotServed. */
  reason?: string;
  message: string;
  /** ListenPathConflict: the id of the API that keeps the listen path. */
  conflicts_with?: string;
}
