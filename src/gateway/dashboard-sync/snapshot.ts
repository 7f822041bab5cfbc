// What a gateway in licensed mode gets from the dashboard's node API (GET /system/node/config): every API, policy,
// key and certificate it should serve, under one version (an ETag). The last good snapshot is kept on disk beside
// the store (<storage.path>/dashboard-snapshot.json, mode 0600: it holds sessions, keys only in their storage form,
// and certificates with their private keys, as the store does), so a
// gateway restarted while the dashboard is down still serves what it served before.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

const RemoteApi = z.object({
  id: z.string().min(1),
  org_id: z.string().optional(),
  format: z.enum(['classic', 'oas']),
  definition: z.record(z.string(), z.unknown()),
});
const RemotePolicy = z.looseObject({ id: z.string().min(1), org_id: z.string().optional() });
const RemoteKey = z.object({ storage_id: z.string().min(1), hashed: z.boolean(), session: z.record(z.string(), z.unknown()) });
const RemoteCert = z.object({ id: z.string().min(1), pem: z.string().min(1) });

export const DashboardSnapshot = z.object({
  version: z.string(),
  apis: z.array(RemoteApi),
  policies: z.array(RemotePolicy),
  keys: z.array(RemoteKey),
  /** Absent from a dashboard (or a saved snapshot) older than certificates in the node API. */
  certs: z.array(RemoteCert).default([]),
});
export type DashboardSnapshot = z.infer<typeof DashboardSnapshot>;
export type RemoteKey = z.infer<typeof RemoteKey>;
export type RemoteCert = z.infer<typeof RemoteCert>;

export function snapshotFile(storagePath: string): string {
  return join(storagePath, 'dashboard-snapshot.json');
}

export function readCachedSnapshot(file: string): DashboardSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = DashboardSnapshot.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : undefined;
}

/**
 * Written to a temporary file and renamed over the old one: a crash leaves the old copy or the new, never half. The
 * directory is made if missing: with a Redis store nothing else creates storage.path.
 */
export function writeCachedSnapshot(file: string, snapshot: DashboardSnapshot): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(snapshot), { mode: 0o600 });
  renameSync(temporary, file);
}
