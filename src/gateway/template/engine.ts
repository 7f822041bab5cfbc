// The TypeScript side of the template engine (engine/: Go's text/template + sprig v3 compiled to WASI): one
// WebAssembly instance per process, run in-process through node:wasi, and the calls of its ABI (engine/main.go).
// Templates are compiled once (at API load); a request crosses into WebAssembly once, to execute. It owns moving
// bytes across the boundary; it never logs and never sees a request (the transform step does).
//
// The instance is single-threaded and every call is synchronous, so calls never interleave.
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { locateTemplateEngine } from './artefact.ts';

export type InputFormat = 'json' | 'xml';

/** A template that does not parse: Go's message, naming the template and the line. */
export class TemplateParseError extends Error {
  readonly code = 'TEMPLATE_PARSE';
  constructor(message: string) {
    super(message);
    this.name = 'TemplateParseError';
  }
}

/** A template that fails while executing (Go's message, with the template's name, line and column). */
export class TemplateExecuteError extends Error {
  readonly code: 'TEMPLATE_EXECUTE' | 'BODY_UNDECODABLE' = 'TEMPLATE_EXECUTE';
  constructor(message: string) {
    super(message);
    this.name = 'TemplateExecuteError';
  }
}

/** The request body does not decode as the declared format (JSON or XML): the client's error, not the template's. */
export class BodyDecodeError extends TemplateExecuteError {
  override readonly code = 'BODY_UNDECODABLE';
  constructor(message: string) {
    super(message);
    this.name = 'BodyDecodeError';
  }
}

/** The few WebAssembly JS API members used here (the project's TypeScript libs carry no DOM/WebAssembly types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

interface EngineExports {
  memory: { readonly buffer: ArrayBuffer };
  alloc(size: number): number;
  free(ptr: number): void;
  result_ptr(): number;
  result_len(): number;
  compile(namePtr: number, nameLen: number, srcPtr: number, srcLen: number): number;
  release(handle: number): void;
  execute(handle: number, inPtr: number, inLen: number, format: number, extraPtr: number, extraLen: number): number;
}

const FORMAT_CODE: Record<InputFormat, number> = { json: 0, xml: 1 };
const EMPTY = new Uint8Array(0);

interface Placed {
  ptr: number;
  len: number;
}

/** A parsed template, living in the engine until released. */
export interface CompiledTemplate {
  readonly handle: number;
  readonly name: string;
  /** Kept so another instance (the executor's worker, executor.ts) can compile the same template. */
  readonly source: string;
}

export class TemplateEngine {
  private readonly exports: EngineExports;

  private constructor(exports: EngineExports) {
    this.exports = exports;
  }

  /** Instantiates the artefact at `path` (tens of milliseconds: the module is compiled once per process). */
  static load(path: string): TemplateEngine {
    const module = new wasm.Module(readFileSync(path));
    // No arguments, environment or preopened directories: a template sees nothing of the host.
    const wasi = new WASI({ version: 'preview1', args: [], env: {}, returnOnExit: true });
    const instance = new wasm.Instance(module, wasi.getImportObject());
    wasi.initialize(instance);
    return new TemplateEngine(instance.exports as unknown as EngineExports);
  }

  /** Parses `source`; `name` appears in Go's error messages (use the definition field). */
  compile(name: string, source: string): CompiledTemplate {
    const handle = this.withBuffers(Buffer.from(name), Buffer.from(source), (n, s) => this.exports.compile(n.ptr, n.len, s.ptr, s.len));
    if (handle === 0) throw new TemplateParseError(this.resultText());
    return { handle, name, source };
  }

  release(template: CompiledTemplate): void {
    this.exports.release(template.handle);
  }

  /**
   * Runs `template` over `input` decoded as `format`; `extra` (a JSON object text, or empty) adds root keys such as
   * _gw_meta and _gw_context. Returns the output bytes (a copy: the engine's buffer is reused by the next call).
   */
  execute(template: CompiledTemplate, input: Uint8Array, format: InputFormat, extra: Uint8Array = EMPTY): Buffer {
    const status = this.withBuffers(input, extra, (body, more) =>
      this.exports.execute(template.handle, body.ptr, body.len, FORMAT_CODE[format], more.ptr, more.len),
    );
    if (status === 2) throw new BodyDecodeError(this.resultText());
    if (status !== 0) throw new TemplateExecuteError(this.resultText());
    return Buffer.from(this.resultBytes());
  }

  /** Copies both inputs into engine memory, runs `call`, frees them whatever happens. */
  private withBuffers<T>(first: Uint8Array, second: Uint8Array, call: (first: Placed, second: Placed) => T): T {
    const a = this.place(first);
    const b = this.place(second);
    try {
      return call(a, b);
    } finally {
      if (a.ptr !== 0) this.exports.free(a.ptr);
      if (b.ptr !== 0) this.exports.free(b.ptr);
    }
  }

  private place(bytes: Uint8Array): Placed {
    if (bytes.length === 0) return { ptr: 0, len: 0 };
    const ptr = this.exports.alloc(bytes.length);
    // Read memory.buffer after alloc: an allocation may grow (and so replace) it.
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    return { ptr, len: bytes.length };
  }

  private resultBytes(): Uint8Array {
    const len = this.exports.result_len();
    if (len === 0) return EMPTY;
    return new Uint8Array(this.exports.memory.buffer, this.exports.result_ptr(), len);
  }

  private resultText(): string {
    return Buffer.from(this.resultBytes()).toString('utf8');
  }
}

let shared: TemplateEngine | undefined;

/** The process's engine, instantiated on first use; throws TemplateEngineMissing (with how to build it). */
export function templateEngine(): TemplateEngine {
  shared ??= TemplateEngine.load(locateTemplateEngine());
  return shared;
}
