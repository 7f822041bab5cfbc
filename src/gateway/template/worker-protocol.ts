// The messages between the template executor (executor.ts, gateway thread) and its worker (engine-worker.ts).
// Types only.
import type { InputFormat } from './engine.ts';

export type ToWorker =
  | { kind: 'compile'; key: number; name: string; source: string }
  | { kind: 'release'; key: number }
  | { kind: 'execute'; id: number; key: number; input: Uint8Array; format: InputFormat; extra: Uint8Array | null };

/** `ready`: the engine is loaded (sent once, first): executions are timed from then on. */
export type FromWorker = { ready: true } | { id: number; output: Uint8Array } | { id: number; error: string; undecodable: boolean };
