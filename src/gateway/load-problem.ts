// A definition the gateway cannot serve, as a load reports it: where it came from, its id, why. Shared by the
// loader (loader.ts), the dashboard sync (dashboard-sync/sync.ts) and the management API's reload report.
export interface LoadProblem {
  /** `store`, a file path, `dashboard`, or `routing`. */
  source: string;
  id?: string;
  message: string;
}
