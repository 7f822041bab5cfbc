// What the three portal controllers (APIDescription, PortalAPICatalogue, PortalConfig) share: resolving the
// resource's OperatorContext (missing: Ready=False ContextNotFound), the licensed-mode rule (a context in ce mode
// has no dashboard: Ready=False LicensedModeRequired and a Warning Event, never silence, and a terminal outcome,
// never a success), and the status write — the Ready condition, observedGeneration, the kind's own fields and, for
// the kinds stored on the dashboard, the latestTransaction of the last sync. A Ready=False write also records a Warning Event (the recorder folds repeats).
// Failures map to reasons like the synced kinds': WaitingError/InvalidSpecError carry theirs, MgmtError its kind.
import type { Logger } from 'pino';
import { setCondition, type Condition } from '../../kube/conditions.ts';
import { TerminalError, type ReconcileResult } from '../../kube/controller.ts';
import type { KubeObject } from '../../kube/object.ts';
import type { ResourceType } from '../../kube/resource.ts';
import { MgmtError } from '../../mgmt/client.ts';
import type { ContextResolver, ResolvedContext } from '../sync/context.ts';
import { ContextError, InvalidSpecError, WaitingError } from '../sync/errors.ts';
import type { PortalClients } from '../portal/portal-client.ts';
import { reasonOf } from '../sync/refusals.ts';
import type { ResourceWriter } from '../sync/writer.ts';

export interface PortalServices {
  contexts: ContextResolver;
  writer: ResourceWriter;
  portal: PortalClients;
  log: Logger;
  /** How often a synced catalogue or configuration is compared with the dashboard's copy (drift repair). */
  resyncMs: number;
  now?: () => Date;
}

/** How long a resource waiting for a dependency or its context waits before it is reconciled again. */
export const PORTAL_WAIT_MS = 30_000;

type PortalObject = KubeObject & {
  spec: { contextRef?: { name: string; namespace?: string | undefined } | undefined };
  status?: { conditions?: Condition[] | undefined; latestTransaction?: { status?: string | undefined; error?: string | undefined } | undefined } | undefined;
};

export interface ReadyState {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export class PortalStatus {
  readonly #s: PortalServices;
  readonly #resource: ResourceType;
  readonly #transactions: boolean;

  /** `transactions`: the kind is stored on the dashboard and its status has latestTransaction (APIDescription: no). */
  constructor(services: PortalServices, resource: ResourceType, transactions: boolean) {
    this.#s = services;
    this.#resource = resource;
    this.#transactions = transactions;
  }

  /**
   * The dashboard context of a resource, or the result to return: its context is missing (ContextNotFound, retried)
   * or in ce mode (LicensedModeRequired: a TerminalError, reconciled again when the context changes; while the
   * resource is being deleted `ce` is answered instead, so that its deletion can go on). `kindStatus`: the kind's own
   * fields to keep in status meanwhile.
   */
  async dashboard(
    object: PortalObject,
    kindStatus: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<{ context: ResolvedContext } | { result: ReconcileResult | undefined; ce: boolean }> {
    let context: ResolvedContext;
    try {
      context = await this.#s.contexts.resolve(object, signal);
    } catch (error) {
      if (!(error instanceof ContextError)) throw error;
      await this.write(object, { status: 'False', reason: 'ContextNotFound', message: error.message }, kindStatus, 'Failed', signal);
      return { result: { requeueAfterMs: PORTAL_WAIT_MS }, ce: false };
    }
    if (context.gateway.env.mode === 'ce') {
      const message = `${object.kind ?? this.#resource.kind} needs licensed mode: the classic portal lives on a dashboard, and ${context.context ? `OperatorContext ${context.context}` : 'the operator (GW_MODE)'} names a gateway in ce mode (${context.gateway.env.url}); use a pro-mode context`;
      await this.write(object, { status: 'False', reason: 'LicensedModeRequired', message }, kindStatus, undefined, signal);
      // Not a success (gw_operator_reconciles_total outcome="terminal"): nothing works until the context changes.
      if (!object.metadata.deletionTimestamp) throw new TerminalError(message);
      return { result: undefined, ce: true };
    }
    return { context };
  }

  /** Writes the Ready condition with the kind's fields; `transaction`: the outcome of a sync with the dashboard. */
  async write(
    object: PortalObject,
    ready: ReadyState,
    kindStatus: Record<string, unknown>,
    transaction: 'Successful' | 'Failed' | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const now = this.#s.now?.() ?? new Date();
    const status = object.status ?? {};
    if (ready.status === 'False') this.#s.writer.event(object, 'Warning', ready.reason, ready.message);
    const previous = status.latestTransaction;
    const latestTransaction =
      transaction === undefined || !this.#transactions
        ? previous
        : transaction === 'Failed'
          ? previous?.status === 'Failed' && previous.error === ready.message
            ? previous
            : { status: 'Failed', time: now.toISOString(), error: ready.message }
          : { status: 'Successful', time: now.toISOString() };
    await this.#s.writer.writeStatus(
      this.#resource,
      object,
      {
        ...status,
        ...kindStatus,
        ...(latestTransaction ? { latestTransaction } : {}),
        conditions: setCondition(status.conditions, { type: 'Ready', ...ready, observedGeneration: object.metadata.generation ?? 0 }, now),
        observedGeneration: object.metadata.generation ?? 0,
      },
      signal,
    );
  }

  /**
   * Reports a failed reconcile and answers what to do next: wait and retry (a dependency, an unreachable dashboard:
   * rethrown for backoff), or stop until the resource changes (TerminalError). Anything else is rethrown as a bug.
   */
  async failed(object: PortalObject, error: unknown, kindStatus: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ReconcileResult> {
    if (error instanceof WaitingError) {
      await this.write(object, { status: 'False', reason: error.reason, message: error.message }, kindStatus, 'Failed', signal);
      return { requeueAfterMs: PORTAL_WAIT_MS };
    }
    if (error instanceof InvalidSpecError) {
      await this.write(object, { status: 'False', reason: error.reason, message: error.message }, kindStatus, 'Failed', signal);
      throw new TerminalError(error.message);
    }
    if (error instanceof MgmtError) {
      await this.write(object, { status: 'False', reason: reasonOf(error), message: error.message }, kindStatus, 'Failed', signal);
      if (error.kind === 'invalid' || error.kind === 'conflict') throw new TerminalError(error.message);
    }
    throw error;
  }
}
