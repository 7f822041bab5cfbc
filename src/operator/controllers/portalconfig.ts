// PortalConfig: the organisation's classic portal configuration on the dashboard (sign-up, key request and approval
// settings; one per organisation). A reconcile reads the dashboard's (GET /api/portal/configuration): none yet, it
// is created (POST; the id answered goes in status.id); else it is updated (PUT with the dashboard's id) unless in
// sync — what we would send is what we last sent and the dashboard's copy is what it answered then. The dashboard's
// PUT replaces the whole configuration, so an update carries over the fields Tyk's CRD does not have (portal_name,
// require_developer_approval, set on the dashboard), and only the fields the PortalConfig owns count as drift. A
// synced configuration is compared with the dashboard's copy every resync period (drift repair). Deleting a PortalConfig
// keeps the dashboard's configuration (Tyk\'s rule): only the finalizer goes, with an Event saying so.
// Several PortalConfigs for one organisation: the oldest owns it, the others say so (portal-ownership.ts).
// secure_key_approval and enable_multi_selection set to true are refused by name (Ready=False Unsupported and a
// Warning Event, nothing written to the dashboard): its portal does not implement them.
import { contentHash } from '../../domain/canonical-json.ts';
import type { Cache } from '../../kube/cache.ts';
import { TerminalError, type ReconcileResult, type Reconciler } from '../../kube/controller.ts';
import { PORTAL_FINALIZERS, PortalResources, type PortalConfigObject } from '../portal/portal-resources.ts';
import { configurationPayload, configurationUpdate, ownedConfiguration } from '../translate/portal.ts';
import { PortalStatus, type PortalServices } from './portal-lifecycle.ts';
import { organisationOwner, yieldToOwner } from './portal-ownership.ts';

/** Settings of Tyk's portal configuration the dashboard's portal does not implement, refused while set to true. */
function unsupportedPortalField(spec: PortalConfigObject['spec']): string | undefined {
  const refused = (field: string, what: string) => `spec.${field}: ${what} is not supported by this dashboard's portal yet`;
  if (spec.secure_key_approval === true) return refused('secure_key_approval', 'e-mailing a link for an approved key request (secure key approval)');
  if (spec.enable_multi_selection === true)
    return refused('enable_multi_selection', 'asking for several catalogue entries in one key request (multi selection)');
  return undefined;
}

export class PortalConfigReconciler implements Reconciler {
  readonly #configs: Cache<PortalConfigObject>;
  readonly #s: PortalServices;
  readonly #status: PortalStatus;
  /** What this process last wrote per key (newer than a cached status right after the write). */
  readonly #written = new Map<string, { uid: string | undefined; desiredHash: string; gatewayHash: string }>();

  constructor(configs: Cache<PortalConfigObject>, services: PortalServices) {
    this.#configs = configs;
    this.#s = services;
    this.#status = new PortalStatus(services, PortalResources.config, true);
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const config = this.#configs.get(key);
    if (!config) {
      this.#written.delete(key);
      return;
    }
    const { writer } = this.#s;
    if (config.metadata.deletionTimestamp) {
      this.#written.delete(key);
      if (!writer.hasFinalizer(config, PORTAL_FINALIZERS.config)) return;
      await writer.removeFinalizer(PortalResources.config, config, PORTAL_FINALIZERS.config, signal);
      writer.event(
        config,
        'Normal',
        'Deleted',
        `PortalConfig deleted; the dashboard's portal configuration${config.status?.id ? ` ${config.status.id}` : ''} is kept`,
      );
      return;
    }
    const keep = { ...(config.status?.id ? { id: config.status.id } : {}) };
    const unsupported = unsupportedPortalField(config.spec);
    if (unsupported) {
      // Refused by name rather than stored for a portal that would ignore it; reconciled again when the spec changes.
      await this.#status.write(config, { status: 'False', reason: 'Unsupported', message: unsupported }, keep, 'Failed', signal);
      throw new TerminalError(unsupported);
    }
    const dashboard = await this.#status.dashboard(config, keep, signal);
    if ('result' in dashboard) return dashboard.result;
    const { gateway } = dashboard.context;
    const owner = await organisationOwner(this.#configs, config, dashboard.context, (_o, env) => env.org, this.#s.contexts, signal);
    const yielded = await yieldToOwner(
      owner,
      config,
      'portal configuration',
      gateway.env.org,
      gateway.env.url,
      PortalResources.config,
      PORTAL_FINALIZERS.config,
      { writer, status: this.#status },
      signal,
    );
    if (yielded) return yielded.result;
    await writer.addFinalizer(PortalResources.config, config, PORTAL_FINALIZERS.config, signal);
    const portal = this.#s.portal.of(gateway);
    try {
      const payload = configurationPayload(config.spec, gateway.env.org);
      const current = await portal.getConfiguration(signal);
      let id: string;
      let wrote: 'Created' | 'Updated' | undefined;
      const desiredHash = contentHash(payload);
      if (!current) {
        id = await portal.createConfiguration(payload, signal);
        wrote = 'Created';
      } else {
        id = String(current.id);
        const currentHash = contentHash(ownedConfiguration(payload, current));
        const written = this.#written.get(key);
        const status = config.status;
        const matches = (crd: string | undefined, gw: string | undefined) => crd === desiredHash && gw === currentHash;
        const inSync =
          matches(status?.latestCRDSpecHash, status?.latestGwSpecHash) ||
          (written !== undefined && written.uid === config.metadata.uid && matches(written.desiredHash, written.gatewayHash));
        if (!inSync) {
          await portal.putConfiguration({ ...configurationUpdate(payload, current), id }, signal);
          wrote = 'Updated';
        }
      }
      let gatewayHash = current ? contentHash(ownedConfiguration(payload, current)) : desiredHash;
      if (wrote) {
        const stored = await portal.getConfiguration(signal);
        gatewayHash = stored ? contentHash(ownedConfiguration(payload, stored)) : desiredHash;
        this.#written.set(key, { uid: config.metadata.uid, desiredHash, gatewayHash });
      }
      const transaction = wrote || config.status?.latestTransaction?.status !== 'Successful' ? 'Successful' : undefined;
      await this.#status.write(
        config,
        { status: 'True', reason: 'Synced', message: `portal configuration ${id}` },
        { id, latestCRDSpecHash: desiredHash, latestGwSpecHash: gatewayHash },
        transaction,
        signal,
      );
      if (wrote) writer.event(config, 'Normal', wrote, `portal configuration ${id} ${wrote.toLowerCase()} on ${gateway.env.url}`);
      return { requeueAfterMs: this.#s.resyncMs };
    } catch (error) {
      return this.#status.failed(config, error, keep, signal);
    }
  }
}
