// Issue 10, item 6: what a client sends never makes the governance hub answer 500. On PostgreSQL and on PGlite:
// ids carrying %00, NUL or a lone surrogate in any string field (PostgreSQL refuses both), a body nested 5 000
// deep, a page number past any OFFSET. Each is a 400 naming the parameter, field or limit, checked once at the
// edge; the lists still answer 200 afterwards.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, startHub, type RunningHub } from './hub-process.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

describe.each(ENGINES)('governance edge validation on %s', (engine) => {
  const databases = useDatabases(engine);
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub(databases.config());
  });

  it('answers ids and query values carrying %00 with 400 naming the parameter', async () => {
    expect(expectStatus(await hub.admin('GET', '/api/labels/abc%00'), 400)).toEqual({
      status: 'error',
      message: 'path parameter id: contains a NUL character (\\u0000), which is not allowed',
    });
    expect(expectStatus(await hub.admin('GET', '/api/api%00id/labels'), 400)).toMatchObject({
      message: expect.stringMatching(/^path parameter apiId: contains a NUL/) as string,
    });
    expect(expectStatus(await hub.admin('PUT', '/api/x%00/labels', { labels: {} }), 400)).toMatchObject({
      message: expect.stringMatching(/^path parameter apiId/) as string,
    });
    expect(expectStatus(await hub.admin('GET', '/api/apis?search=a%00b'), 400)).toMatchObject({
      message: expect.stringMatching(/^query parameter search: contains a NUL/) as string,
    });
    expect(expectStatus(await hub.admin('GET', '/api/labels/%ED%A0%80'), 400)).toEqual({
      status: 'error',
      message: "'/api/labels/%ED%A0%80' is not a valid url component",
    });
    expect(expectStatus(await hub.admin('GET', '/api/apis?page=99999999999999999999'), 400)).toMatchObject({
      message: expect.stringMatching(/^page: must be a whole number/) as string,
    });
  });

  it('answers NUL or a lone surrogate in any string field with 400 naming the field, and stores nothing', async () => {
    expect(expectStatus(await hub.admin('POST', '/api/labels', '{"name":"Owner\\u0000Team"}'), 400)).toEqual({
      status: 'error',
      message: 'Request malformed: name: contains a NUL character (\\u0000), which is not allowed',
    });
    expect(expectStatus(await hub.admin('POST', '/api/labels', '{"name":"Tier","values":["ok","\\ud800"]}'), 400)).toEqual({
      status: 'error',
      message: 'Request malformed: values[1]: contains a lone UTF-16 surrogate (not valid Unicode)',
    });
    expect(expectStatus(await hub.admin('PUT', '/api/some-api/labels', '{"labels":{"business_domain":"a\\u0000"}}'), 400)).toMatchObject({
      message: 'Request malformed: labels.business_domain: contains a NUL character (\\u0000), which is not allowed',
    });
    expect(expectStatus(await hub.admin('POST', '/api/tokens', '{"name":"\\udfff","role":"member"}'), 400)).toMatchObject({
      message: expect.stringMatching(/^Request malformed: name: contains a lone/) as string,
    });
    const { labels } = expectStatus<{ labels: { name: string }[] }>(await hub.admin('GET', '/api/labels'), 200);
    expect(labels.map((label) => label.name)).toEqual(['API Criticality', 'Business Domain']);
  });

  it('answers a body nested 5 000 deep with 400 naming the limit, and the lists still answer 200', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(expectStatus(await hub.admin('POST', '/api/labels', `{"name":"Deep","values":${deep}}`), 400)).toMatchObject({
      message: expect.stringMatching(/^Request malformed: JSON nested deeper than 100 levels/) as string,
    });
    expect(expectStatus(await hub.admin('PATCH', '/api/some-api/labels', `{"labels":${deep}}`), 400)).toMatchObject({
      message: expect.stringMatching(/nested deeper than 100/) as string,
    });
    expectStatus(await hub.admin('GET', '/api/labels'), 200);
    expectStatus(await hub.admin('GET', '/api/apis'), 200);
  });
});
