// Where a change feed stood (the gateway's GET /gw/changes, the dashboard's GET /api/changes): its version counter
// and the epoch (process) that counter belongs to. The feed (http/change-feed.ts) answers it; the management
// clients (mgmt/) read it for the operator's drift watch.
export interface ChangeCursor {
  version: number;
  epoch: string;
}
