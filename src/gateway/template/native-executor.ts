// Runs body-transform templates in the native engine process (engine/serve_native.go): one long-lived process per
// gateway, spoken to over its stdin/stdout with native-protocol.ts's frames. Templates are announced (`prepare`)
// at API load and compiled there once; a request costs one frame each way (frames written in the same tick go out
// in one write). The engine answers in order, so the oldest execution in flight is the one running: its time limit
// runs from when it became the oldest, and past it the process is killed (the only way to stop a template that
// loops), that execution fails with TemplateTimeoutError, and the executions queued behind it are sent again to a
// fresh process, which is given every template first.
//
// The process dies with the gateway: its stdin closes when the gateway goes, and it also watches GW_PARENT_PID
// (src/config/stop-request.ts). When it exits on its own (a crash, killed from outside), every execution in flight
// fails at once with a TemplateExecuteError naming the exit (the step answers 500), and the next execution starts a
// fresh process. It never logs and never sees anything of a request beyond the bytes it is given.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { BodyDecodeError, TemplateExecuteError, type CompiledTemplate, type InputFormat } from './engine.ts';
import { compileFrame, executeHead, releaseFrame, ReplyReader, ReplyStatus, type Reply } from './native-protocol.ts';
import { TemplateTimeoutError, type PendingExecution, type TemplateRunner } from './runner.ts';

type EngineProcess = ChildProcessByStdio<Writable, Readable, null>;

export class NativeTemplateExecutor implements TemplateRunner {
  readonly #path: string;
  /** Every template announced, by the load-time engine's handle: a new process compiles them all. */
  readonly #templates = new Map<number, CompiledTemplate>();
  /** Sent and not answered yet, oldest first (the engine answers in this order). */
  readonly #inFlight: PendingExecution[] = [];
  #process: EngineProcess | undefined;
  #corked = false;
  #timer: NodeJS.Timeout | undefined;
  #nextId = 1;
  #closed = false;

  constructor(path: string) {
    this.#path = path;
  }

  /** The running engine's pid (tests, diagnostics), undefined before the first template or after a crash. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  prepare(template: CompiledTemplate): void {
    if (this.#templates.has(template.handle)) return;
    this.#templates.set(template.handle, template);
    if (this.#process) this.#write(compileFrame(template.handle, template.name, template.source));
    else this.#ensureProcess(); // compiles every known template, this one included
  }

  release(template: CompiledTemplate): void {
    // An execution of it still unanswered may be sent again to a replacement process, which must know it.
    if (this.#inFlight.some((job) => job.template.handle === template.handle)) return;
    if (!this.#templates.delete(template.handle)) return;
    if (this.#process) this.#write(releaseFrame(template.handle));
  }

  execute(template: CompiledTemplate, input: Uint8Array, format: InputFormat, extra: Uint8Array | undefined, timeoutMs: number): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new TemplateExecuteError('the template engine was closed'));
    this.prepare(template);
    return new Promise((resolve, reject) => {
      const job: PendingExecution = { id: this.#nextId++, template, input, format, extra, timeoutMs, resolve, reject };
      this.#send(job);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#failInFlight(new TemplateExecuteError('the template engine was closed'));
    const engine = this.#process;
    this.#process = undefined;
    if (!engine || engine.exitCode !== null || engine.signalCode !== null) return;
    const exited = new Promise((resolve) => engine.once('exit', resolve));
    engine.ref(); // the wait for its exit keeps this process alive until then
    engine.kill('SIGKILL');
    await exited;
  }

  #send(job: PendingExecution): void {
    this.#ensureProcess();
    this.#inFlight.push(job);
    this.#write(executeHead(job.id, job.template.handle, job.format, job.input, job.extra));
    this.#write(job.input);
    if (job.extra && job.extra.length > 0) this.#write(job.extra);
    if (this.#inFlight.length === 1) this.#startTimer(job);
  }

  /** Writes of one tick leave in one system call (writev). */
  #write(bytes: Uint8Array): void {
    const stdin = this.#process!.stdin;
    if (!this.#corked) {
      this.#corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.#corked = false;
        stdin.uncork();
      });
    }
    stdin.write(bytes);
  }

  #ensureProcess(): EngineProcess {
    if (this.#process) return this.#process;
    const engine = spawn(this.#path, [], {
      stdio: ['pipe', 'pipe', 'ignore'],
      // Nothing of the gateway's environment: a template sees nothing of the host. GW_PARENT_PID: it exits when
      // this process is gone.
      env: { GW_PARENT_PID: String(process.pid) },
    });
    this.#process = engine;
    this.#corked = false;
    const replies = new ReplyReader();
    engine.stdout.on('data', (chunk: Buffer) => {
      for (const reply of replies.push(chunk)) this.#answered(engine, reply);
    });
    engine.stdin.on('error', () => {}); // a dead engine's pipe: its 'exit' says what happened
    engine.on('error', (error) => this.#stopped(engine, error.message));
    engine.on('exit', (code, signal) => this.#stopped(engine, signal ? `killed by ${signal}` : `exit code ${code}`));
    // Never keeps the gateway alive.
    engine.unref();
    // Its pipes are sockets (net.Socket), which can be unreferenced too.
    for (const pipe of [engine.stdout, engine.stdin] as unknown as { unref?: () => void }[]) pipe.unref?.();
    for (const template of this.#templates.values()) this.#write(compileFrame(template.handle, template.name, template.source));
    return engine;
  }

  #answered(engine: EngineProcess, reply: Reply): void {
    if (engine !== this.#process) return; // from a process already replaced
    const job = this.#inFlight[0];
    if (!job || job.id !== reply.id) {
      // Out of step with the engine: nothing it says can be trusted any more.
      this.#replace(engine, 'the template engine answered out of order');
      return;
    }
    this.#inFlight.shift();
    clearTimeout(this.#timer);
    if (reply.status === ReplyStatus.Output) job.resolve(reply.payload);
    else if (reply.status === ReplyStatus.Undecodable) job.reject(new BodyDecodeError(reply.payload.toString('utf8')));
    else job.reject(new TemplateExecuteError(reply.payload.toString('utf8')));
    const next = this.#inFlight[0];
    if (next) this.#startTimer(next);
  }

  #startTimer(job: PendingExecution): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#timedOut(job), job.timeoutMs);
  }

  #timedOut(job: PendingExecution): void {
    if (this.#inFlight[0] !== job || !this.#process) return;
    const engine = this.#process;
    this.#process = undefined;
    engine.kill('SIGKILL');
    this.#inFlight.shift();
    job.reject(new TemplateTimeoutError(job.template.name, job.timeoutMs));
    // The ones behind it did nothing wrong: a fresh process runs them.
    for (const queued of this.#inFlight.splice(0)) this.#send(queued);
  }

  /** The process ended without being asked to (a crash, a kill from outside, or it could not start). */
  #stopped(engine: EngineProcess, how: string): void {
    if (engine !== this.#process) return; // already replaced (timed out or out of step)
    this.#process = undefined;
    this.#failInFlight(new TemplateExecuteError(`the template engine process stopped (${how}); a new one starts with the next request`));
  }

  #replace(engine: EngineProcess, why: string): void {
    this.#process = undefined;
    engine.kill('SIGKILL');
    this.#failInFlight(new TemplateExecuteError(why));
  }

  #failInFlight(error: Error): void {
    clearTimeout(this.#timer);
    for (const job of this.#inFlight.splice(0)) job.reject(error);
  }
}
