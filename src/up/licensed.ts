// `gw up --licensed`: the dashboard half of licensed mode on this machine. Starts `gw dashboard` on its embedded
// database (PGlite, in the state directory) with generated secrets, creates one operator-managed organisation with the operator's
// system user and a human user allowed everything, and answers what the rest of `gw up` needs: the dashboard's
// URL and node secret (for the gateway), the system user's key (for the operator, GW_MODE=pro) and the human's key
// (to sign in to the web UI at the dashboard's URL). Keys are created through the dashboard's API, as a user would.
// Must never print the admin secret; the human's access key is printed once by `gw up`, like the sample key.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { startGwChild, type GwChild } from './child.ts';

export interface LicensedDashboard {
  url: string;
  nodeSecret: string;
  orgId: string;
  /** The operator's system user (GW_AUTH in pro mode). */
  operatorKey: string;
  /** A human user with every permission: signs in to the web UI. */
  userEmail: string;
  userKey: string;
  configFile: string;
  child: GwChild;
}

const EVERYTHING = {
  apis: 'write',
  policies: 'write',
  keys: 'write',
  certificates: 'write',
  portal: 'write',
  analytics: 'read',
  users: 'write',
  user_groups: 'write',
  audit_logs: 'read',
};

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
}

export async function startLicensedDashboard(options: { stateDir: string; logFile: string; port: number }): Promise<LicensedDashboard> {
  const dir = join(options.stateDir, 'dashboard');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const adminSecret = randomBytes(24).toString('base64url');
  const nodeSecret = randomBytes(24).toString('base64url');
  const configFile = join(dir, 'dashboard.json');
  const config = {
    listen_address: '127.0.0.1',
    listen_port: options.port,
    admin_secret: adminSecret,
    node_secret: nodeSecret,
    database_url: 'db',
    allow_explicit_policy_id: true,
    enable_duplicate_slugs: true,
  };
  writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  const url = `http://127.0.0.1:${options.port}`;
  const child = await startGwChild({
    args: ['dashboard', '--config', configFile],
    output: { logFile: options.logFile },
    readyUrl: `${url}/hello`,
    timeoutMs: 120_000,
  });
  try {
    const admin = { 'admin-auth': adminSecret };
    // Operator-managed, as the README advises for an organisation the operator syncs into: only its system user
    // writes APIs and policies; the human's writes of them are refused (403, or 409 naming the custom resource).
    const org = await post(`${url}/admin/organisations`, admin, { owner_name: 'gw up', operator_managed: true });
    if (org.status !== 200) throw new Error(`creating the organisation failed (HTTP ${org.status}): ${String(org.json.Message)}`);
    const orgId = String(org.json.Meta);
    const user = async (email: string, system: boolean): Promise<string> => {
      const created = await post(`${url}/admin/users`, admin, {
        org_id: orgId,
        email_address: email,
        first_name: system ? 'gw' : 'Local',
        last_name: system ? 'operator' : 'admin',
        user_permissions: EVERYTHING,
        system,
      });
      if (created.status !== 200) throw new Error(`creating user ${email} failed (HTTP ${created.status}): ${String(created.json.Message)}`);
      return String((created.json.Meta as { access_key: string }).access_key);
    };
    const operatorKey = await user('operator@gw-up.local', true);
    const userEmail = 'admin@gw-up.local';
    const userKey = await user(userEmail, false);
    return { url, nodeSecret, orgId, operatorKey, userEmail, userKey, configFile, child };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** A key for the policy, made in the dashboard by its human user. */
export async function createDashboardKey(dashboard: LicensedDashboard, policyId: string): Promise<string> {
  const created = await post(`${dashboard.url}/api/keys`, { authorization: dashboard.userKey }, { apply_policies: [policyId], alias: 'gw-up-sample' });
  const key = created.json.key;
  if (created.status !== 200 || typeof key !== 'string')
    throw new Error(`creating the sample key failed (HTTP ${created.status}): ${String(created.json.Message)}`);
  return key;
}
