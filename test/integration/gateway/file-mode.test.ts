// File mode (by design): API definitions in app_path/*.json (invalid without api_id) and policies in the policies file,
// loaded at start and on reload, beside what the management API stores.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, http, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

interface Ready {
  details: { apis: number; policies: number; problems: { source: string; id?: string; message: string }[] };
}

describe('file mode', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    const { api_id: _, ...withoutId } = classicApi('x', '/no-id', upstream.url, { use_keyless: true });
    gw = await startGateway(
      {},
      {
        apps: {
          'keyless.json': classicApi('from-file', '/from-file', upstream.url, { use_keyless: true }),
          'protected.json': classicApi('file-protected', '/file-protected', upstream.url),
          'no-id.json': withoutId,
          'broken.json': '{ "name": ',
          'readme.txt': 'not a definition',
          'oas.json': {
            openapi: '3.0.3',
            info: { title: 'f', version: '1' },
            paths: {},
            'x-gw-api-gateway': {
              info: { id: 'file-oas', name: 'f', state: { active: true } },
              upstream: { url: upstream.url },
              server: { listenPath: { value: '/file-oas', strip: true } },
            },
          },
        },
        policies: {
          'file-policy': { name: 'from the file', access_rights: { 'file-protected': { api_id: 'file-protected', versions: [] } } },
          'bad-policy': { name: 'bad', quota_max: 0 },
        },
      },
    );
  });

  it('serves the valid definitions of app_path, Classic and OAS', async () => {
    expect((await gw.call('/from-file/a')).status).toBe(200);
    expect((await gw.call('/file-oas/a')).status).toBe(200);
    expect((await gw.admin('GET', '/gw/apis/from-file')).json()).toMatchObject({ api_id: 'from-file' });
  });

  it('reports each invalid file (a definition without api_id is invalid) and loads the rest', async () => {
    const ready = (await http(`${gw.controlUrl}/ready`)).json<Ready>();
    const problem = (file: string) => ready.details.problems.find((p) => p.source.endsWith(file))?.message;
    expect(problem('no-id.json')).toBe('api_id is required in file mode: a definition without api_id is invalid');
    expect(problem('broken.json')).toMatch(/JSON/);
    expect(problem('policies.json')).toContain('quota_max must be -1 (unlimited) or a positive integer');
    expect(ready.details.problems.some((p) => p.source.endsWith('readme.txt'))).toBe(false);
    expect(ready.details.apis).toBe(3);
    expect(gw.output()).toContain('api_id is required in file mode');
  });

  it('applies policies from the policies file to keys', async () => {
    const created = await gw.admin('POST', '/gw/keys/create', { apply_policies: ['file-policy'] });
    expect(created.status).toBe(200);
    const key = created.json<{ key: string }>().key;
    expect((await gw.call('/file-protected/x', { headers: { authorization: key } })).status).toBe(200);
    expect((await gw.admin('GET', '/gw/policies/file-policy')).json()).toMatchObject({ id: 'file-policy', name: 'from the file' });
  });

  it('loads new files on reload, and will not delete a file definition through the API', async () => {
    writeFileSync(join(gw.dir, 'apps', 'later.json'), JSON.stringify(classicApi('later', '/later', upstream.url, { use_keyless: true })));
    expect((await gw.call('/later/x')).status).toBe(404);
    await gw.reload();
    expect((await gw.call('/later/x')).status).toBe(200);
    const refused = await gw.admin('DELETE', '/gw/apis/later');
    expect(refused.status).toBe(400);
    expect(refused.json<{ message: string }>().message).toContain('remove the file instead');
    expect((await gw.admin('DELETE', '/gw/policies/file-policy')).status).toBe(400);
  });
});
