// A gateway's load-time refusal of an API the operator wrote (Tyk Gateway only logs it), as the resource's Ready
// condition: the gateway's reason (ListenPathConflict, DefinitionNotServed) and its message, with the other
// resource named when the gateway says which API keeps the listen path. ApiOwners maps the API ids the operator
// writes to the resources that own them ("ApiDefinition ns/name"), shared by the API kinds' reconcilers.
import type { ApiLoadProblem } from '../../mgmt/client.ts';

export class ApiOwners {
  readonly #owners = new Map<string, string>();

  set(id: string, owner: string): void {
    this.#owners.set(id, owner);
  }

  forget(id: string, owner: string): void {
    if (this.#owners.get(id) === owner) this.#owners.delete(id);
  }

  get(id: string): string | undefined {
    return this.#owners.get(id);
  }
}

/** The Ready=False reason and message of an API its gateway refused to serve. */
export function loadProblemCondition(problem: ApiLoadProblem, owners: ApiOwners | undefined, gatewayUrl: string): { reason: string; message: string } {
  const other = problem.conflictsWith === undefined ? undefined : owners?.get(problem.conflictsWith);
  return {
    reason: problem.reason,
    message: `written, but ${gatewayUrl} does not serve it: ${problem.message}${other ? ` (${other})` : ''}`,
  };
}
