// The template executor's worker thread (executor.ts): its own engine instance, templates compiled when the
// executor announces them, executions answered in order. It owns nothing else: no timing, no logging — the
// executor bounds each execution and terminates this thread when one runs too long. It says when its engine is
// loaded (loading and compiling the WebAssembly module takes seconds on a busy machine and is no template's time).
import { parentPort, workerData } from 'node:worker_threads';
import { BodyDecodeError, TemplateEngine, type CompiledTemplate } from './engine.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

const port = parentPort!;
const engine = TemplateEngine.load((workerData as { path: string }).path);
const templates = new Map<number, CompiledTemplate>();
port.postMessage({ ready: true } satisfies FromWorker); // the executor times executions from here, not from our start

port.on('message', (message: ToWorker) => {
  if (message.kind === 'compile') {
    templates.set(message.key, engine.compile(message.name, message.source));
    return;
  }
  if (message.kind === 'release') {
    const template = templates.get(message.key);
    if (template) engine.release(template);
    templates.delete(message.key);
    return;
  }
  let reply: FromWorker;
  try {
    const template = templates.get(message.key);
    if (!template) throw new Error(`template ${message.key} was never compiled in the worker`);
    // Its own ArrayBuffer (a small Buffer shares the pool's, which cannot be transferred), moved, not copied.
    const output = new Uint8Array(engine.execute(template, message.input, message.format, message.extra ?? undefined));
    reply = { id: message.id, output };
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error), undecodable: error instanceof BodyDecodeError };
  }
  port.postMessage(reply, 'output' in reply ? [reply.output.buffer as ArrayBuffer] : []);
});
