// Body-transform templates are released once no loaded API uses them: a gateway whose APIs' templates are edited
// over and over holds the templates in use, not every source it ever loaded (it grew without bound before).
// Through the real engines (the load-time WebAssembly one and the runner), built by scripts/build-template-engine.sh.
import { beforeAll, describe, expect, it } from 'vitest';
import { builtTemplateEngine } from '../../../test/support/template-engine.ts';
import { templateExecutor } from '../template/executor.ts';
import { compileBodyTransform, releaseUnusedTemplates } from './body-transforms.ts';

beforeAll(() => {
  process.env.GW_TEMPLATE_ENGINE ??= builtTemplateEngine();
}, 180_000);

/** What a load of one API with this request transform template compiles. */
const transform = (field: string, template: string) =>
  compileBodyTransform({
    field,
    path: '/',
    method: 'POST',
    format: 'json',
    enableSession: false,
    blob: { field, base64: Buffer.from(template).toString('base64') },
  });

const run = async (rule: ReturnType<typeof transform>, body: string): Promise<string> =>
  (await templateExecutor().execute(rule.template, Buffer.from(body), 'json', undefined, 5000)).toString('utf8');

describe('releaseUnusedTemplates', () => {
  it('keeps only the templates compiled since the last load, however many edits came before', async () => {
    transform('kept', 'kept {{.a}}');
    releaseUnusedTemplates();
    for (let edit = 0; edit < 50; edit++) {
      transform('kept', 'kept {{.a}}');
      const edited = transform('edited', `edit ${edit} {{.a}}`);
      expect(await run(edited, '{"a":1}')).toBe(`edit ${edit} 1`);
      expect(releaseUnusedTemplates()).toBe(2);
    }
  });

  it('still runs a released template an in-flight request of the previous load holds', async () => {
    const old = transform('old', 'old {{.a}}');
    releaseUnusedTemplates();
    expect(releaseUnusedTemplates()).toBe(0); // a load without it: released
    expect(await run(old, '{"a":2}')).toBe('old 2');
  });
});
