// The native engine process through the real binary (built by scripts/build-template-engine.sh beside the .wasm):
// the same outputs and errors as the WebAssembly engine in this process, a template stopped at its time limit with
// the executions queued behind it served by a fresh process, and a crash (the process killed from outside) failing
// the executions in flight at once with a clear error, the next one served by a restarted process.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtTemplateEngine } from '../../../test/support/template-engine.ts';
import { BodyDecodeError, TemplateEngine, TemplateExecuteError, type CompiledTemplate, type InputFormat } from './engine.ts';
import { NativeTemplateExecutor } from './native-executor.ts';
import { TemplateTimeoutError } from './runner.ts';

let engine: TemplateEngine;
let native: NativeTemplateExecutor;
let greet: CompiledTemplate;
beforeAll(() => {
  const wasm = builtTemplateEngine();
  engine = TemplateEngine.load(wasm);
  native = new NativeTemplateExecutor(join(dirname(wasm), 'template-engine'));
  greet = engine.compile('greet', 'hello {{.name}}');
  native.prepare(greet);
}, 180_000);
afterAll(() => native.close());

/** What the in-process WebAssembly engine answers: the output, or the error's class and message. */
function wasmAnswer(template: CompiledTemplate, body: string, format: InputFormat, extra?: string): string {
  try {
    return engine.execute(template, Buffer.from(body), format, extra === undefined ? undefined : Buffer.from(extra)).toString('latin1');
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

async function nativeAnswer(template: CompiledTemplate, body: string, format: InputFormat, extra?: string): Promise<string> {
  try {
    return (await native.execute(template, Buffer.from(body), format, extra === undefined ? undefined : Buffer.from(extra), 5000)).toString('latin1');
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe('NativeTemplateExecutor', () => {
  it('answers byte for byte what the WebAssembly engine answers: outputs, template errors, undecodable bodies', async () => {
    const cases: [string, string, InputFormat, string?][] = [
      ['{{. | jsonMarshal}}', '{"b":[1,2.50,"<&>"],"a":{"x":null},"u":"\\u00e9\\ud83d\\ude00"}', 'json'],
      ['{{range $i, $e := .array}}{{if $i}},{{end}}{{$e.id}}{{end}}', '[{"id":1},{"id":2}]', 'json'],
      [
        '{{.id}} {{._gw_meta.tier}} {{index ._gw_context.path_parts 1}}',
        '{"id":7}',
        'json',
        '{"_gw_meta":{"tier":"gold"},"_gw_context":{"path_parts":["","x"]}}',
      ],
      ['{{. | xmlMarshal}}|{{index .order "-id"}}', '<order id="7"><item>pen</item><item>ink</item></order>', 'xml'],
      ['{{. | jsonMarshal}}', '', 'json'],
      ['{{. | jsonMarshal}}', '', 'xml'],
      ['{{.a.b}}', '{"a":1}', 'json'],
      ['{{.}}', '{not json', 'json'],
      ['{{.}}', '<a>', 'xml'],
      ['{{upper .s | b64enc}} {{ "x" | sha256sum }}', '{"s":"abc"}', 'json'],
    ];
    for (const [source, body, format, extra] of cases) {
      const template = engine.compile('case', source);
      native.prepare(template);
      expect(await nativeAnswer(template, body, format, extra), source).toBe(wasmAnswer(template, body, format, extra));
    }
    await expect(native.execute(engine.compile('failing', '{{.a.b}}'), Buffer.from('{"a":1}'), 'json', undefined, 5000)).rejects.toThrow(TemplateExecuteError);
    await expect(native.execute(greet, Buffer.from('{'), 'json', undefined, 5000)).rejects.toThrow(BodyDecodeError);
  });

  it('bodies and outputs larger than a pipe buffer cross intact', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const echo = engine.compile('echo', '{{.s}}');
    expect((await native.execute(echo, Buffer.from(JSON.stringify({ s: big })), 'json', undefined, 10_000)).toString()).toBe(big);
  });

  it('stops a template at its time limit; executions queued behind it run on a fresh process', async () => {
    const loop = engine.compile('loop', '{{range $i := 100000000000}}{{end}}');
    const before = native.pid;
    const stopped = native.execute(loop, Buffer.from('{}'), 'json', undefined, 200);
    const queued = native.execute(greet, Buffer.from('{"name":"queued"}'), 'json', undefined, 5000);
    await expect(stopped).rejects.toThrow(new TemplateTimeoutError('loop', 200));
    expect((await queued).toString()).toBe('hello queued');
    expect(native.pid).not.toBe(before);
    expect((await native.execute(greet, Buffer.from('{"name":"after"}'), 'json', undefined, 5000)).toString()).toBe('hello after');
  });

  it('a crash fails the executions in flight at once (never a hang) and the next one is served by a restarted process', async () => {
    const loop = engine.compile('loop-crash', '{{range $i := 100000000000}}{{end}}');
    // Long limits: only the crash can end these.
    const running = native.execute(loop, Buffer.from('{}'), 'json', undefined, 600_000);
    const queued = native.execute(greet, Buffer.from('{"name":"queued"}'), 'json', undefined, 600_000);
    const crashed = native.pid!;
    process.kill(crashed, 'SIGKILL');
    const expected = 'the template engine process stopped (killed by SIGKILL); a new one starts with the next request';
    await expect(running).rejects.toThrow(new TemplateExecuteError(expected));
    await expect(queued).rejects.toThrow(new TemplateExecuteError(expected));
    expect((await native.execute(greet, Buffer.from('{"name":"restarted"}'), 'json', undefined, 5000)).toString()).toBe('hello restarted');
    expect(native.pid).toBeDefined();
    expect(native.pid).not.toBe(crashed);
  });

  it('an engine that cannot start fails the execution with a clear error, never a hang', async () => {
    const notAProgram = new NativeTemplateExecutor(fileURLToPath(new URL('./runner.ts', import.meta.url)));
    try {
      await expect(notAProgram.execute(greet, Buffer.from('{"name":"x"}'), 'json', undefined, 600_000)).rejects.toThrow(
        /^the template engine process stopped \(spawn .*runner\.ts EACCES\); a new one starts with the next request$/,
      );
    } finally {
      await notAProgram.close();
    }
  });
});
