// JSON Schema validation of request bodies through a real gateway process to a real echo upstream: Classic
// validate_json and OAS validateRequest, with Tyk's codes and messages naming the failing path.
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

const PET = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
  },
};

describe('JSON Schema validation', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ validate_json_max_body_bytes: 1024 });
    const api = classicApi('validated', '/validated', upstream.url, {
      use_keyless: true,
      extended_paths: {
        validate_json: [
          { path: '/pets', method: 'POST', schema: PET },
          { path: '/strict', method: 'PUT', schema: { type: 'array' }, error_response_code: 400 },
        ],
      },
    });
    expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    const oas = {
      openapi: '3.0.3',
      info: { title: 'oas validated', version: '1' },
      paths: {
        '/pets': {
          post: { operationId: 'addPet', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: {} },
        },
      },
      components: {
        schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string', nullable: true } } } },
      },
      'x-gw-api-gateway': {
        info: { id: 'oas-validated', name: 'oas validated', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/oas-validated', strip: true } },
        middleware: { operations: { addPet: { validateRequest: { enabled: true } } } },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
  });

  const send = (path: string, body: string, method: 'POST' | 'PUT' = 'POST') =>
    gw.call(path, { method, headers: { 'content-type': 'application/json' }, body });

  it('forwards a matching body unchanged', async () => {
    const body = '{"name":"rex","age":3,"owner":{"email":"a@example.com"}}';
    const result = await send('/validated/pets', body);
    expect(result.status).toBe(200);
    expect(result.json<Echo>().body).toBe(body);
  });

  it('answers 422 `payload validation failed` naming every failing field', async () => {
    const result = await send('/validated/pets', '{"age":"three","owner":{"email":"nope"}}');
    expect(result.status).toBe(422);
    expect(result.text).toBe(
      errorBody(
        'payload validation failed: (root): name is required: age: Invalid type. Expected: integer, given: string: owner.email: must match format "email"',
      ),
    );
  });

  it('answers the configured error_response_code', async () => {
    const result = await send('/validated/strict', '{}', 'PUT');
    expect(result.status).toBe(400);
    expect(result.text).toBe(errorBody('payload validation failed: (root): Invalid type. Expected: array, given: object'));
  });

  it('answers 400 `JSON parsing error` to a body that is not JSON, and 413 past validate_json_max_body_bytes', async () => {
    const broken = await send('/validated/pets', '{"name":');
    expect(broken.status).toBe(400);
    expect(broken.text).toMatch(/^\{\n {4}"error": "JSON parsing error: /);
    const large = await send('/validated/pets', JSON.stringify({ name: 'x'.repeat(2000) }));
    expect(large.status).toBe(413);
  });

  it('leaves other methods and paths alone', async () => {
    expect((await send('/validated/pets', 'not json', 'PUT')).status).toBe(200);
    expect((await send('/validated/other', 'not json')).status).toBe(200);
  });

  it("validates OAS validateRequest against the operation's requestBody schema, references resolved", async () => {
    expect((await send('/oas-validated/pets', '{"name":"rex","tag":null}')).status).toBe(200);
    const result = await send('/oas-validated/pets', '{"tag":"x"}');
    expect(result.status).toBe(422);
    expect(result.text).toBe(errorBody('request validation error: request body has an error: doesn\'t match schema: Error at "/name": name is required'));
  });

  it('refuses an API whose schema does not compile, naming the field', async () => {
    const api = classicApi('bad-schema', '/bad-schema', upstream.url, {
      use_keyless: true,
      extended_paths: { validate_json: [{ path: '/pets', method: 'POST', schema: { type: 'no-such-type' } }] },
    });
    const result = await gw.admin('POST', '/gw/apis', api);
    expect(result.status).toBe(400);
    expect(result.text).toContain('extended_paths.validate_json[0].schema is not a valid JSON Schema');
  });
});
