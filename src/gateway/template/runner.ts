// What the body-transform steps call to run a compiled template over a body, bounded in time — whichever engine
// runs it: the native engine process (native-executor.ts) or WebAssembly on a worker thread (executor.ts). Both
// answer the same outputs and the same errors (they run the same Go code). Types and the timeout error only.
import { TemplateExecuteError, type CompiledTemplate, type InputFormat } from './engine.ts';

export interface TemplateRunner {
  /** Makes `template` known to the engine (compiled there now, and again by any replacement). */
  prepare(template: CompiledTemplate): void;
  /** Forgets `template` (no API uses it any more): the engine drops it; an execution of it later prepares it again. */
  release(template: CompiledTemplate): void;
  /**
   * Runs `template` over `input` decoded as `format`, with `extra` (a JSON object text: _gw_meta, _gw_context) merged
   * into the root. Rejects with BodyDecodeError, TemplateExecuteError, or TemplateTimeoutError past `timeoutMs`.
   */
  execute(template: CompiledTemplate, input: Uint8Array, format: InputFormat, extra: Uint8Array | undefined, timeoutMs: number): Promise<Buffer>;
  /** Stops the engine (gateway shutdown); pending executions fail. */
  close(): Promise<void>;
}

/** An execution a runner has accepted and not answered yet. */
export interface PendingExecution {
  id: number;
  template: CompiledTemplate;
  input: Uint8Array;
  format: InputFormat;
  extra: Uint8Array | undefined;
  timeoutMs: number;
  resolve(output: Buffer): void;
  reject(error: Error): void;
}

/** An execution stopped at its time limit (the worker or process running it was terminated). */
export class TemplateTimeoutError extends TemplateExecuteError {
  constructor(name: string, timeoutMs: number) {
    super(`template ${name} ran longer than ${timeoutMs} ms and was stopped`);
    this.name = 'TemplateTimeoutError';
  }
}
