// The gateway command's import mode with an in-memory file system: flag combinations, messages naming the file
// and the flag, definition on stdout, warnings on stderr.
import { describe, expect, it } from 'vitest';
import { runImport, wantsImport, type ImportFlagValues } from './cli.ts';

const files: Record<string, string> = {
  'pets.json': JSON.stringify({ swagger: '2.0', info: { title: 'Pets', version: '1' }, basePath: '/pets', paths: { '/cats': { get: {} } } }),
  'broken.json': '{"swagger":',
};

async function run(values: ImportFlagValues, extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runImport(values, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readFile: (path) => {
      const text = extra[path] ?? files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
  });
  return { code, stdout, stderr };
}

describe('gw gateway import flags', () => {
  it('is import mode when any import flag is given', () => {
    expect(wantsImport({})).toBe(false);
    expect(wantsImport({ 'as-mock': true })).toBe(true);
  });

  it('creates an API with a generated api_id and prints it', async () => {
    const { code, stdout, stderr } = await run({ 'import-swagger': 'pets.json', 'create-api': true, 'upstream-target': 'http://u', 'org-id': 'o1' });
    expect(code).toBe(0);
    const definition = JSON.parse(stdout) as { api_id: string; org_id: string; name: string };
    expect(definition).toMatchObject({ name: 'Pets', org_id: 'o1' });
    expect(definition.api_id).toMatch(/^[0-9a-f]{32}$/);
    expect(stderr).toMatch(/^gw gateway: warning: the API is keyless/m);
  });

  it('adds a version to the definition in --for-api', async () => {
    const created = (await run({ 'import-swagger': 'pets.json', 'create-api': true, 'upstream-target': 'http://u' })).stdout;
    const { code, stdout } = await run({ 'import-swagger': 'pets.json', 'for-api': 'api.json', 'as-version': 'v2' }, { 'api.json': created });
    expect(code).toBe(0);
    expect(Object.keys((JSON.parse(stdout) as { version_data: { versions: object } }).version_data.versions)).toEqual(['1', 'v2']);
    const taken = await run({ 'import-swagger': 'pets.json', 'for-api': 'api.json', 'as-version': '1' }, { 'api.json': created });
    expect([taken.code, taken.stderr]).toEqual([2, 'gw gateway: pets.json: the API already has a version named "1": choose another name with --as-version\n']);
    const notClassic = await run({ 'import-swagger': 'pets.json', 'for-api': 'api.json', 'as-version': 'v2' }, { 'api.json': '{}' });
    expect(notClassic.stderr).toMatch(/^gw gateway: api\.json: the existing API \(--for-api\) is not a valid Classic API definition/);
  });

  it('refuses with exit 2, naming the file and the flag', async () => {
    const cases: [ImportFlagValues, string][] = [
      [{ 'import-swagger': 'pets.json', 'create-api': true }, 'gw gateway: pets.json: OpenAPI 2.0 imports need an upstream URL'],
      [{ 'import-swagger': 'pets.json', 'create-api': true, 'as-mock': true }, 'gw gateway: pets.json: Swagger imports cannot create mocks: --as-mock'],
      [{ 'import-swagger': 'missing.json', 'create-api': true }, 'gw gateway: cannot read missing.json (--import-swagger): ENOENT'],
      [{ 'import-swagger': 'broken.json', 'create-api': true }, 'gw gateway: broken.json: not a valid OpenAPI/Swagger JSON document'],
      [{ 'import-swagger': 'pets.json' }, 'gw gateway: say what to do with the document: --create-api'],
      [{ 'import-swagger': 'pets.json', 'create-api': true, 'for-api': 'x' }, 'gw gateway: --create-api and --for-api exclude each other'],
      [{ 'import-swagger': 'pets.json', 'for-api': 'x' }, 'gw gateway: --for-api needs --as-version=NAME'],
      [{ 'import-swagger': 'pets.json', 'import-wsdl': 'x', 'create-api': true }, 'gw gateway: import one document at a time'],
      [{ 'create-api': true }, 'gw gateway: the import flags need the document'],
      [{ 'import-swagger': 'pets.json', 'create-api': true, 'wsdl-port': 'p' }, 'gw gateway: --wsdl-service and --wsdl-port apply to --import-wsdl only'],
      [{ 'import-swagger': 'pets.json', 'for-api': 'nope.json', 'as-version': 'v' }, 'gw gateway: cannot read the API definition nope.json (--for-api)'],
    ];
    for (const [values, message] of cases) {
      const { code, stdout, stderr } = await run(values);
      expect([code, stdout, stderr.startsWith(message)], `${JSON.stringify(values)}: ${stderr}`).toEqual([2, '', true]);
    }
  });
});
