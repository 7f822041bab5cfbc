// The executor through the real engine on a real worker thread: results, errors, a template stopped at its time
// limit, the replacement worker serving the templates announced before, and a time limit counted from the worker's
// load of its engine.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtTemplateEngine } from '../../../test/support/template-engine.ts';
import { BodyDecodeError, TemplateEngine, TemplateExecuteError, type CompiledTemplate } from './engine.ts';
import { TemplateExecutor, TemplateTimeoutError } from './executor.ts';

let engine: TemplateEngine;
let executor: TemplateExecutor;
let greet: CompiledTemplate;
beforeAll(() => {
  const path = builtTemplateEngine();
  engine = TemplateEngine.load(path);
  executor = new TemplateExecutor(path);
  greet = engine.compile('greet', 'hello {{.name}}');
  executor.prepare(greet);
}, 180_000);
afterAll(() => executor.close());

describe('TemplateExecutor', () => {
  it('executes on the worker and answers errors as the engine does', async () => {
    expect((await executor.execute(greet, Buffer.from('{"name":"ada"}'), 'json', undefined, 5000)).toString()).toBe('hello ada');
    const failing = engine.compile('failing', '{{.a.b}}');
    await expect(executor.execute(failing, Buffer.from('{"a":1}'), 'json', undefined, 5000)).rejects.toThrow(TemplateExecuteError);
    await expect(executor.execute(greet, Buffer.from('{'), 'json', undefined, 5000)).rejects.toThrow(BodyDecodeError);
  });

  it('stops a template at its time limit; queued and later executions run on a fresh worker', async () => {
    const loop = engine.compile('loop', '{{range $i := 100000000000}}{{end}}');
    const stopped = executor.execute(loop, Buffer.from('{}'), 'json', undefined, 200);
    const queued = executor.execute(greet, Buffer.from('{"name":"queued"}'), 'json', undefined, 5000);
    await expect(stopped).rejects.toThrow(new TemplateTimeoutError('loop', 200));
    expect((await queued).toString()).toBe('hello queued');
    expect((await executor.execute(greet, Buffer.from('{"name":"after"}'), 'json', undefined, 5000)).toString()).toBe('hello after');
  });

  it("counts a time limit from the new worker's load of its engine, not from the worker's start", async () => {
    // The clock the executor bounds executions with is a fake one here: the seconds a busy machine may take to load
    // the WebAssembly module pass before the worker (a real thread) has loaded it. It failed with
    // TemplateTimeoutError when the limit counted from the worker's start.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fresh = new TemplateExecutor(builtTemplateEngine());
    try {
      const answer = fresh.execute(greet, Buffer.from('{"name":"late"}'), 'json', undefined, 1000);
      vi.advanceTimersByTime(10_000);
      vi.useRealTimers();
      expect((await answer).toString()).toBe('hello late');
    } finally {
      vi.useRealTimers();
      await fresh.close();
    }
  });
});
