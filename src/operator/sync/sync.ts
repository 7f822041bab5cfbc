// The reconcile of every kind that is synced to a gateway (ApiDefinition, GwOasApiDefinition, SecurityPolicy):
// gw's documented reconciliation table and docs/architecture.md §4, written once. A kind supplies only what differs (SyncKind):
// how its payload is built, its id, its own status fields and what blocks its deletion.
//
//   deleted in the cluster    blocked (condition DeletionBlocked naming the blocker), or released at once when no
//                             gateway ever acknowledged a write of it (or by annotation: deletion.ts), or DELETE
//                             on the gateway (404 counts as done), a coalesced reload, then the finalizer goes;
//                             an unanswered DELETE is Ready=False DeletionPending, retried with backoff
//   absent on the gateway     CREATE
//   hashes differ             UPDATE: desired payload hash != status.latestCRDSpecHash, or the gateway's copy
//                             != status.latestGwSpecHash (changed or deleted on the gateway: drift)
//   in sync                   nothing: no gateway write, no reload, and no status write unless status changed
//   an Ingress template       not synced (taken off the gateway if it was); status from kind.templateStatus
// Failures become status (latestTransaction Failed with the error, condition Ready=False with a reason), a
// Warning Event, and a retry: waiting for a dependency or a context every 30 s (and at once when it appears),
// an unreachable gateway with backoff, a payload the gateway refuses (400/422: GatewayRejected) or a conflict it
// reports (409, e.g. a duplicate slug: GatewayConflict, with the gateway's message) never, until the resource changes.
// A write is live only once the gateway reloaded: until a reload after it succeeds the resource is Ready=False
// (ReloadPending, or ReloadFailed with the error while the reloader retries) and it is reconciled again after each
// reload attempt. Every request a reconcile makes carries its AbortSignal (timeout, lost Lease).
import { setCondition, type Condition } from '../../kube/conditions.ts';
import { TerminalError, type ReconcileResult, type Reconciler } from '../../kube/controller.ts';
import { objectKey } from '../../kube/object.ts';
import { MgmtError, type ApiLoadProblem, type Definition } from '../../mgmt/client.ts';
import type { ResolvedContext } from './context.ts';
import { deletionPendingMessage, skipsGatewayDeletion, SKIP_GATEWAY_DELETION_ANNOTATION, wasEverWritten } from './deletion.ts';
import { ContextError, InvalidSpecError, WaitingError } from './errors.ts';
import { contentHash } from '../../domain/canonical-json.ts';
import { loadProblemCondition } from './load-problems.ts';
import { reasonOf, Refusals } from './refusals.ts';
import type { Reloader, ReloadState } from './reloader.ts';
import type { SyncedObject, SyncKind, SyncServices } from './sync-kind.ts';

// The contract of a synced kind is sync-kind.ts's; the kinds import it from here too.
export type { SyncedObject, SyncKind, SyncServices } from './sync-kind.ts';

const WAIT_MS = 30_000;

/** What a reconcile last wrote for one resource, so a reconcile that runs before the informer delivers that
 * status write (a stale cached object) still sees the resource as in sync and does not write again. */
interface Written {
  uid: string | undefined;
  desiredHash: string;
  gatewayHash: string;
}

/** Why a resource in sync with its gateway is not Ready yet: its write awaits a reload. */
const RELOAD_REASONS = new Set(['ReloadPending', 'ReloadFailed']);

export class SyncReconciler<O extends SyncedObject> implements Reconciler {
  readonly #kind: SyncKind<O>;
  readonly #s: SyncServices;
  readonly #written = new Map<string, Written>();
  /** Writes refused for good: not sent again until the resource's desired payload changes. */
  readonly #refusals = new Refusals();
  /** The reload ticket of each key's last write that is not known to be live yet. */
  readonly #reloads = new Map<string, { reloader: Reloader; ticket: number }>();
  /** Keys that will be reconciled again after their reloader's next attempt. */
  readonly #awaitingReload = new Set<string>();
  readonly #requeue: (key: string) => void;
  /** The API id of each key (API kinds), the keys the gateway's last load refused, the reloaders listened to. */
  readonly #ids = new Map<string, string>();
  readonly #refused = new Set<string>();
  readonly #watchedReloaders = new WeakSet<Reloader>();

  /** requeue: puts a key back in this reconciler's queue (after a reload attempt that concerns it). */
  constructor(kind: SyncKind<O>, services: SyncServices, requeue: (key: string) => void) {
    this.#kind = kind;
    this.#s = services;
    this.#requeue = requeue;
  }

  /** APIs (not policies): what a gateway's load may refuse. */
  get #servesApis(): boolean {
    return this.#kind.mirrorKind !== 'policies';
  }

  async reconcile(key: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    const object = this.#kind.cache.get(key);
    if (!object) {
      this.#written.delete(key);
      this.#refusals.forget(key);
      this.#reloads.delete(key);
      const id = this.#ids.get(key);
      if (id !== undefined) this.#s.owners?.forget(id, `${this.#kind.kind} ${key}`);
      this.#ids.delete(key);
      this.#refused.delete(key);
      return; // gone: its finalizer was handled while it was being deleted
    }
    let context: ResolvedContext;
    try {
      context = await this.#s.contexts.resolve(object, signal);
    } catch (error) {
      if (!(error instanceof ContextError)) throw error;
      // Deleting: a resource never written anywhere (or told to skip the gateway) needs no context to go.
      if (object.metadata.deletionTimestamp) return this.#finalize(key, object, { missing: error.message }, signal);
      await this.#failed(object, undefined, 'ContextNotFound', error.message, signal);
      return { requeueAfterMs: WAIT_MS };
    }
    if (object.metadata.deletionTimestamp) return this.#finalize(key, object, context, signal);
    const templateStatus = this.#kind.templateStatus?.(object);
    if (templateStatus) {
      // A resource synced before it became a template leaves the gateway (nothing to do without the finalizer).
      const blocked = await this.#finalize(key, object, context, signal);
      if (blocked) return blocked;
      // Ready like every kind (README: READY and REASON on every kind; `kubectl wait --for=condition=Ready` ends),
      // its reason saying it is a template, never served itself. Tyk Operator writes ingressTemplate alone.
      const ingresses = (templateStatus.ingresses as string[] | undefined) ?? [];
      const message = `an Ingress template, not served itself: ${ingresses.length > 0 ? `copied for Ingress ${ingresses.join(', ')}` : 'no Ingress names it yet'}`;
      const ready = { type: 'Ready', status: 'True' as const, reason: 'IngressTemplate', message, observedGeneration: object.metadata.generation ?? 0 };
      await this.#s.writer.writeStatus(
        this.#kind.resource,
        object,
        { ...templateStatus, conditions: setCondition(object.status?.conditions, ready, this.#now()) },
        signal,
      );
      return;
    }
    await this.#s.writer.addFinalizer(this.#kind.resource, object, this.#kind.finalizer, signal);

    const id = this.#kind.idOf(object, context);
    let desired: Definition;
    try {
      desired = await this.#kind.desired(object, context, id, signal);
    } catch (error) {
      if (error instanceof WaitingError) {
        await this.#failed(object, id, error.reason, error.message, signal);
        return { requeueAfterMs: WAIT_MS };
      }
      if (error instanceof InvalidSpecError) {
        await this.#failed(object, id, error.reason, error.message, signal);
        throw new TerminalError(error.message);
      }
      throw error;
    }

    const { client, mirror, reloader } = context.gateway;
    const status = object.status ?? {};
    const desiredHash = contentHash(desired);
    let gatewayHash: string | undefined;
    try {
      await mirror.ensureFresh(this.#s.mirrorMaxAgeMs, signal);
      const current = mirror.hash(this.#kind.mirrorKind, id);
      gatewayHash = current;
      const written = this.#written.get(key);
      const matches = (crdHash: string | undefined, gwHash: string | undefined) => crdHash === desiredHash && gwHash === current;
      const inSync =
        current !== undefined &&
        (matches(status.latestCRDSpecHash, status.latestGwSpecHash) ||
          (written?.uid === object.metadata.uid && matches(written?.desiredHash, written?.gatewayHash)));
      if (inSync) {
        if (!reloader.problemsRead && this.#servesApis) await reloader.readProblems(signal);
        await this.#synced(object, id, desired, desiredHash, current, false, this.#live(key, object, id, reloader), client.url, signal);
        return;
      }
      const refusal = this.#refusals.of(key, object.metadata.uid, desiredHash);
      if (refusal) {
        await this.#failed(object, id, refusal.reason, refusal.message, signal);
        throw new TerminalError(refusal.message);
      }
      await this.#kind.put(client, id, desired, signal);
      this.#s.metrics.writes.labels(this.#kind.kind, gatewayHash === undefined ? 'create' : 'update').inc();
      const stored = await this.#kind.get(client, id, signal);
      const storedHash = stored ? contentHash(stored) : desiredHash;
      mirror.record(this.#kind.mirrorKind, id, storedHash);
      this.#written.set(key, { uid: object.metadata.uid, desiredHash, gatewayHash: storedHash });
      this.#reloads.set(key, { reloader, ticket: reloader.request() });
      await this.#synced(object, id, desired, desiredHash, storedHash, true, this.#live(key, object, id, reloader), client.url, signal);
      this.#s.writer.event(
        object,
        'Normal',
        gatewayHash === undefined ? 'Created' : 'Updated',
        `${this.#kind.kind} ${gatewayHash === undefined ? 'created on' : 'updated on'} ${client.url} as ${id}`,
      );
    } catch (error) {
      if (!(error instanceof MgmtError)) throw error;
      await this.#failed(object, id, reasonOf(error), error.message, signal);
      if (this.#refusals.remember(key, object.metadata.uid, desiredHash, error)) throw new TerminalError(error.message);
      throw error;
    }
  }

  /** The gateway hash this process last wrote for the key (the informer may not have delivered its status yet). */
  writtenGatewayHash(key: string, uid: string | undefined): string | undefined {
    const written = this.#written.get(key);
    return written && written.uid === uid ? written.gatewayHash : undefined;
  }

  /** Whether the key's last write is live and, once it is, whether the gateway's load refused it (API kinds). */
  #live(key: string, object: O, id: string, reloader: Reloader): { reload: ReloadState; problem?: ApiLoadProblem | undefined } {
    const reload = this.#reloadState(key, object, reloader);
    if (!this.#servesApis) return { reload };
    this.#s.owners?.set(id, `${this.#kind.kind} ${objectKey(object)}`);
    this.#ids.set(key, id);
    if (!this.#watchedReloaders.has(reloader)) {
      this.#watchedReloaders.add(reloader);
      // After each load: look again at every key the gateway refuses now or refused before (conflicts come and go).
      reloader.onLoaded(() => {
        for (const [k, apiId] of this.#ids) if (this.#refused.has(k) || reloader.problemOf(apiId)) this.#requeue(k);
      });
    }
    const problem = reload.state === 'done' ? reloader.problemOf(id) : undefined;
    if (problem) this.#refused.add(key);
    else this.#refused.delete(key);
    return { reload, problem };
  }

  /**
   * Whether the key's last write is live. A resource left ReloadPending/ReloadFailed by an earlier process (no
   * ticket here) asks for a reload of its own. While not done, the key is reconciled again after the next attempt.
   */
  #reloadState(key: string, object: O, reloader: Reloader): ReloadState {
    let pending = this.#reloads.get(key);
    if (!pending || pending.reloader !== reloader) {
      const reason = object.status?.conditions?.find((c) => c.type === 'Ready')?.reason;
      if (!reason || !RELOAD_REASONS.has(reason)) return { state: 'done' };
      pending = { reloader, ticket: reloader.request() };
      this.#reloads.set(key, pending);
    }
    const state = reloader.state(pending.ticket);
    if (state.state === 'done') {
      this.#reloads.delete(key);
    } else if (!this.#awaitingReload.has(key)) {
      this.#awaitingReload.add(key);
      reloader.afterNextAttempt(() => {
        this.#awaitingReload.delete(key);
        this.#requeue(key);
      });
    }
    return state;
  }

  /**
   * Takes the resource off its gateway and removes the finalizer (deletion.ts says when no gateway call is needed);
   * `context` is `{ missing }` when the resource's OperatorContext does not resolve.
   */
  async #finalize(key: string, object: O, context: ResolvedContext | { missing: string }, signal: AbortSignal | undefined): Promise<ReconcileResult | void> {
    const written = wasEverWritten(object.status) || this.#written.get(key)?.uid === object.metadata.uid;
    this.#written.delete(key);
    this.#reloads.delete(key);
    if (!this.#s.writer.hasFinalizer(object, this.#kind.finalizer)) return;
    const blockers = this.#kind.deletionBlockers(object);
    const id = 'gateway' in context ? this.#kind.idOf(object, context) : undefined;
    if (blockers.length > 0) {
      await this.#failed(
        object,
        id,
        'DeletionBlocked',
        `not deleted while ${blockers.join(', ')} still ${blockers.length === 1 ? 'needs' : 'need'} it`,
        signal,
      );
      return { requeueAfterMs: WAIT_MS };
    }
    if (!written || skipsGatewayDeletion(object)) {
      await this.#s.writer.removeFinalizer(this.#kind.resource, object, this.#kind.finalizer, signal);
      if (written)
        this.#s.writer.event(
          object,
          'Warning',
          'GatewayCopyKept',
          `${this.#kind.kind} released by annotation ${SKIP_GATEWAY_DELETION_ANNOTATION} without deleting ${id ?? 'its copy'} on ${'gateway' in context ? context.gateway.client.url : 'its gateway'}`,
        );
      else
        this.#s.writer.event(
          object,
          'Normal',
          'Deleted',
          `${this.#kind.kind} finalizer removed at once: no gateway ever acknowledged a write of it, so there is nothing to delete`,
        );
      return;
    }
    if (!('gateway' in context)) {
      await this.#failed(
        object,
        id,
        'ContextNotFound',
        `deletion waits for its OperatorContext, to delete it from its gateway: ${context.missing}; to release it without deleting it there, annotate ${SKIP_GATEWAY_DELETION_ANNOTATION}=true`,
        signal,
      );
      return { requeueAfterMs: WAIT_MS };
    }
    const { client, mirror, reloader } = context.gateway;
    const gatewayId = this.#kind.idOf(object, context);
    try {
      const deleted = await this.#kind.remove(client, gatewayId, signal);
      if (deleted) {
        this.#s.metrics.writes.labels(this.#kind.kind, 'delete').inc();
        reloader.request();
      }
      mirror.record(this.#kind.mirrorKind, gatewayId, undefined);
    } catch (error) {
      if (!(error instanceof MgmtError)) throw error;
      await this.#failed(object, gatewayId, 'DeletionPending', deletionPendingMessage(this.#kind.kind, gatewayId, client.url, error.message), signal);
      throw error;
    }
    await this.#s.writer.removeFinalizer(this.#kind.resource, object, this.#kind.finalizer, signal);
    this.#s.writer.event(object, 'Normal', 'Deleted', `${this.#kind.kind} deleted from ${client.url}`);
  }

  /** Status of a resource whose payload is on its gateway: Ready once a reload made it live. */
  async #synced(
    object: O,
    id: string,
    desired: Definition,
    desiredHash: string,
    gatewayHash: string,
    wrote: boolean,
    live: { reload: ReloadState; problem?: ApiLoadProblem | undefined },
    gatewayUrl: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { reload, problem } = live;
    const status = object.status ?? {};
    const wasSuccessful = status.latestTransaction?.status === 'Successful';
    const now = this.#now();
    const refused = problem ? loadProblemCondition(problem, this.#s.owners, gatewayUrl) : undefined;
    const ready: Omit<Condition, 'lastTransitionTime'> = refused
      ? { type: 'Ready', status: 'False', reason: refused.reason, message: refused.message, observedGeneration: object.metadata.generation ?? 0 }
      : reload.state === 'done'
        ? { type: 'Ready', status: 'True', reason: 'Synced', message: `synced as ${id}`, observedGeneration: object.metadata.generation ?? 0 }
        : reload.state === 'pending'
          ? {
              type: 'Ready',
              status: 'False',
              reason: 'ReloadPending',
              message: `written as ${id}; waiting for ${gatewayUrl} to reload`,
              observedGeneration: object.metadata.generation ?? 0,
            }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'ReloadFailed',
              message: `written as ${id}, but ${gatewayUrl} failed to reload (retrying): ${reload.error}`,
              observedGeneration: object.metadata.generation ?? 0,
            };
    const previous = status.conditions?.find((c) => c.type === 'Ready');
    if (ready.reason === 'ReloadFailed' && previous?.reason !== 'ReloadFailed') this.#s.writer.event(object, 'Warning', 'ReloadFailed', ready.message);
    if (refused && (previous?.reason !== refused.reason || previous.message !== refused.message))
      this.#s.writer.event(object, 'Warning', refused.reason, refused.message);
    // SYNCSTATUS says Failed while the gateway refuses to serve it, whatever the write answered.
    const transaction = refused
      ? status.latestTransaction?.status === 'Failed' && status.latestTransaction.error === refused.message
        ? status.latestTransaction
        : { status: 'Failed' as const, time: now.toISOString(), error: refused.message }
      : wrote || !wasSuccessful
        ? { status: 'Successful' as const, time: now.toISOString() }
        : status.latestTransaction;
    await this.#s.writer.writeStatus(
      this.#kind.resource,
      object,
      {
        ...this.#kind.kindStatus(object, id, desired),
        latestTransaction: transaction,
        conditions: setCondition(status.conditions, ready, now),
        observedGeneration: object.metadata.generation ?? 0,
        latestCRDSpecHash: desiredHash,
        latestGwSpecHash: gatewayHash,
      },
      signal,
    );
  }

  /** Records a failure in status and as a Warning Event; unchanged failures are not written again. */
  async #failed(object: O, id: string | undefined, reason: string, message: string, signal: AbortSignal | undefined): Promise<void> {
    const status = object.status ?? {};
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    const unchanged = status.latestTransaction?.status === 'Failed' && status.latestTransaction.error === message && ready?.reason === reason;
    this.#s.writer.event(object, 'Warning', reason, message);
    if (unchanged) return;
    const now = this.#now();
    await this.#s.writer.writeStatus(
      this.#kind.resource,
      object,
      {
        ...status,
        ...this.#kind.kindStatus(object, id, undefined),
        latestTransaction: { status: 'Failed', time: now.toISOString(), error: message },
        conditions: setCondition(
          status.conditions,
          { type: 'Ready', status: 'False', reason, message, observedGeneration: object.metadata.generation ?? 0 },
          now,
        ),
      },
      signal,
    );
  }

  #now(): Date {
    return this.#s.now?.() ?? new Date();
  }
}
