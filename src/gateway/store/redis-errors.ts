// Redis failures as the gateway reports them. A command that fails because the connection is down, closed, timed
// out or gave up retrying (ioredis errors that are not Redis replies), or that Redis refused for a passing state
// (LOADING after a restart, BUSY, READONLY/MASTERDOWN during a failover, NOREPLICAS from a master that lost its
// replica under min-replicas-to-write, OOM, TRYAGAIN, CLUSTERDOWN), becomes a
// StoreUnavailableError (503). Any other error reply (WRONGTYPE, a script error) is a defect of ours and is left as
// it is (500, logged).
//
// `failingAsUnavailable` wraps the client once: every method that returns a promise has that promise's failure
// mapped, so no command of redis.ts can forget it. Methods are called on the real client (ioredis's internals see
// their own `this`) and wrapped once per name.
import { StoreUnavailableError } from './unavailable.ts';

const PASSING_STATES = ['LOADING', 'BUSY', 'READONLY', 'MASTERDOWN', 'NOREPLICAS', 'OOM', 'TRYAGAIN', 'CLUSTERDOWN'];

/** A refusal for a passing state; a MULTI discarded (EXECABORT) because a command of it was refused for one. */
function isPassingState(error: Error): boolean {
  if (PASSING_STATES.some((state) => error.message.startsWith(state))) return true;
  const previous = (error as Error & { previousErrors?: unknown }).previousErrors;
  return error.message.startsWith('EXECABORT') && Array.isArray(previous) && previous.some((cause) => cause instanceof Error && isPassingState(cause));
}

export function toStoreError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof StoreUnavailableError) return error;
  if (error.name === 'ReplyError' && !isPassingState(error)) return error;
  return new StoreUnavailableError(`Redis is unavailable: ${error.message}`, { cause: error });
}

export function rethrowAsStoreError(error: unknown): never {
  throw toStoreError(error);
}

export function failingAsUnavailable<T extends object>(client: T): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let wrapper = wrapped.get(property);
      if (!wrapper) {
        wrapper = (...args: unknown[]): unknown => {
          const result: unknown = (Reflect.get(target, property, target) as (...a: unknown[]) => unknown).apply(target, args);
          return result instanceof Promise ? result.catch(rethrowAsStoreError) : result;
        };
        wrapped.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
