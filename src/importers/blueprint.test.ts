// API Blueprint AST import: endpoints from resource groups, mocks from example responses, URI templates.
import { describe, expect, it } from 'vitest';
import { classicToSpec } from '../gateway/definition/from-classic.ts';
import { pathFromUriTemplate } from './blueprint.ts';
import { ImportError } from './errors.ts';
import { importApi } from './import.ts';

const response = (name: string, body: string, headers: { name: string; value: string }[] = []) => ({ name, description: '', headers, body, schema: '' });
const blueprint = {
  _version: '4.0',
  metadata: [
    { name: 'FORMAT', value: '1A' },
    { name: 'HOST', value: 'https://polls.example.com/' },
  ],
  name: 'Polls',
  resourceGroups: [
    {
      name: 'Questions',
      resources: [
        {
          name: 'Collection',
          uriTemplate: '/questions{?page}',
          actions: [
            {
              name: 'List',
              method: 'GET',
              examples: [
                {
                  requests: [],
                  responses: [
                    response('200', '[]', [
                      { name: 'Content-Type', value: 'application/json' },
                      { name: 'Link', value: '<a>' },
                      { name: 'link', value: '<b>' },
                    ]),
                  ],
                },
              ],
            },
            { name: 'Create', method: 'POST', examples: [{ requests: [], responses: [response('201', '{"id":1}'), response('400', 'bad')] }] },
          ],
        },
      ],
    },
    {
      name: 'Choices',
      resources: [
        {
          uriTemplate: '/questions/{question_id}/choices/{choice_id}',
          actions: [
            { method: 'POST', examples: [{ responses: [response('Created', 'voted')] }] },
            { method: 'GET', attributes: { uriTemplate: '/choices/{choice_id}' }, examples: [] },
          ],
        },
      ],
    },
  ],
};

function entries(definition: Awaited<ReturnType<typeof importApi>>['definition']) {
  return definition.version_data!.versions!.Default!.extended_paths!.white_list!;
}

function actions(definition: Awaited<ReturnType<typeof importApi>>['definition'], path: string) {
  return entries(definition).find((entry) => entry.path === path)!.method_actions!;
}

describe('API Blueprint', () => {
  it('imports every resource of every group (not only the last), upstream from HOST metadata', async () => {
    const { definition } = await importApi({ format: 'blueprint', document: JSON.stringify(blueprint) });
    expect(definition.name).toBe('Polls');
    expect(definition.proxy).toEqual({ listen_path: '/polls/', target_url: 'https://polls.example.com/', strip_listen_path: true });
    expect(definition.version_data?.default_version).toBe('Default');
    const paths = entries(definition).map((entry) => [entry.path, Object.keys(entry.method_actions!)]);
    expect(paths).toEqual([
      ['/questions/{question_id}/choices/{choice_id}', ['POST']],
      ['/questions', ['GET', 'POST']],
      ['/choices/{choice_id}', ['GET']],
    ]);
    expect(actions(definition, '/questions').GET).toEqual({ action: 'no_action' });
  });

  it('as a mock, answers the first response of the first example with every header', async () => {
    const { definition, warnings } = await importApi({ format: 'blueprint', document: blueprint }, { asMock: true, upstreamUrl: 'http://u:1' });
    expect(actions(definition, '/questions')).toEqual({
      GET: { action: 'reply', code: 200, data: '[]', headers: { 'Content-Type': 'application/json', Link: '<a>, <b>' } },
      POST: { action: 'reply', code: 201, data: '{"id":1}', headers: {} },
    });
    expect(actions(definition, '/questions/{question_id}/choices/{choice_id}').POST).toMatchObject({ action: 'reply', code: 200, data: 'voted' });
    expect(actions(definition, '/choices/{choice_id}').GET).toEqual({ action: 'no_action' });
    expect(warnings).toContain('GET /choices/{choice_id} has no example response: it is passed to the upstream, not mocked');
    expect(() => classicToSpec(definition, 'polls')).not.toThrow();
  });

  it('unwraps a parse result, falls back to a name, and requires an upstream without HOST', async () => {
    const anonymous = { ...blueprint, name: '', metadata: [] };
    const { definition, warnings } = await importApi({ format: 'blueprint', document: { _version: '2.2', ast: anonymous } }, { upstreamUrl: 'http://u' });
    expect(definition.name).toBe('Imported API Blueprint');
    expect(warnings[0]).toMatch(/no name/);
    await expect(importApi({ format: 'blueprint', document: anonymous })).rejects.toThrow(ImportError);
    await expect(importApi({ format: 'blueprint', document: anonymous })).rejects.toThrow(
      /API Blueprint imports need an upstream URL: the blueprint has no HOST metadata; set upstream_url/,
    );
  });

  it('refuses API Elements and documents without resourceGroups', async () => {
    await expect(importApi({ format: 'blueprint', document: { element: 'parseResult', content: [] } })).rejects.toThrow(/API Elements/);
    await expect(importApi({ format: 'blueprint', document: { name: 'x' } })).rejects.toThrow(/resourceGroups is missing/);
    await expect(
      importApi({ format: 'blueprint', document: { resourceGroups: [{ resources: [{ uriTemplate: '/x', actions: [{ method: 'GET!' }] }] }] } }),
    ).rejects.toThrow(/resourceGroups\[0\]\.resources\[0\]\.actions\[0\]\.method/);
  });

  it('turns URI templates into gateway paths', async () => {
    expect(pathFromUriTemplate('/notes/{id}{?fields,limit}')).toBe('/notes/{id}');
    expect(pathFromUriTemplate('/files{/path*}')).toBe('/files/{path}');
    expect(pathFromUriTemplate('/a/{+rest}')).toBe('/a/{rest}');
    expect(pathFromUriTemplate('/doc{.format}{#section}')).toBe('/doc.{format}');
    expect(pathFromUriTemplate('/search?q=1')).toBe('/search');
    expect(pathFromUriTemplate('items/{id:3}')).toBe('/items/{id}');
  });
});
