// Adding an imported document as a version of an existing definition.
import { describe, expect, it } from 'vitest';
import { classicToSpec } from '../gateway/definition/from-classic.ts';
import { CLI_FLAGS, ImportError } from './errors.ts';
import { importApi, importVersion } from './import.ts';

const v2 = { swagger: '2.0', info: { title: 'Pets', version: '1' }, basePath: '/pets', paths: { '/cats': { get: {} } } };
const v3 = { openapi: '3.0.0', info: { title: 'Pets', version: '2' }, servers: [{ url: 'http://pets-v2:8080' }], paths: { '/dogs': { get: {} } } };

describe('importVersion', () => {
  it('adds the version, keeps the default and the rest of the definition (unknown keys too)', async () => {
    const created = (await importApi({ format: 'swagger', document: v2 }, { upstreamUrl: 'http://pets:8080', apiId: 'pets' })).definition;
    const existing = { ...created, custom_field: { kept: true } };
    const { definition } = await importVersion(existing, { format: 'swagger', document: v3 }, { versionName: 'v2' });
    expect(definition).toMatchObject({ api_id: 'pets', custom_field: { kept: true }, proxy: created.proxy });
    expect(definition.version_data).toMatchObject({ not_versioned: false, default_version: '1' });
    expect(Object.keys(definition.version_data!.versions!)).toEqual(['1', 'v2']);
    expect(definition.version_data!.versions!.v2).toEqual({
      name: 'v2',
      use_extended_paths: true,
      extended_paths: { white_list: [{ path: '/dogs', method_actions: { GET: { action: 'no_action' } } }] },
      override_target: 'http://pets-v2:8080',
    });
    expect(existing.version_data!.versions).not.toHaveProperty('v2');
    const spec = classicToSpec(definition, 'pets');
    expect([...spec.versions.keys()]).toEqual(['1', 'v2']);
  });

  it('without an upstream the version uses the API target (no override)', async () => {
    const created = (await importApi({ format: 'swagger', document: v2 }, { upstreamUrl: 'http://pets:8080' })).definition;
    const { definition } = await importVersion(created, { format: 'swagger', document: v2 }, { versionName: 'again' });
    expect(definition.version_data!.versions!.again!.override_target).toBeUndefined();
    const same = await importVersion(created, { format: 'swagger', document: v2 }, { versionName: 'same', upstreamUrl: 'http://pets:8080' });
    expect(same.definition.version_data!.versions!.same!.override_target).toBeUndefined();
  });

  it('refuses a version name already in use, naming the flag', async () => {
    const created = (await importApi({ format: 'swagger', document: v2 }, { upstreamUrl: 'http://pets:8080' })).definition;
    let error: unknown;
    try {
      await importVersion(created, { format: 'swagger', document: v3 }, { versionName: '1' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).describe(CLI_FLAGS)).toBe('the API already has a version named "1": choose another name with --as-version');
    // Without a name the document's version is used, and it may collide too.
    await expect(importVersion(created, { format: 'swagger', document: v2 })).rejects.toThrow(/already has a version named "1"/);
  });

  it('makes the implicit Default version explicit and versions a not-versioned API', async () => {
    const plain = { name: 'plain', api_id: 'p', proxy: { listen_path: '/p', target_url: 'http://p' }, extended_paths: { black_list: [{ path: '/admin' }] } };
    const { definition } = await importVersion(plain, { format: 'swagger', document: v3 }, { versionName: 'v2' });
    expect(definition.version_data).toEqual({
      default_version: 'Default',
      not_versioned: false,
      versions: { Default: { name: 'Default', use_extended_paths: true }, v2: expect.objectContaining({ name: 'v2' }) as unknown },
    });
    expect(definition.extended_paths).toEqual(plain.extended_paths);
    expect(classicToSpec(definition, 'p').versions.get('Default')!.blackList).toHaveLength(1);

    const single = { ...plain, version_data: { not_versioned: true, versions: { old: { name: 'old' } } } };
    const versioned = await importVersion(single, { format: 'swagger', document: v3 }, { versionName: 'new' });
    expect(versioned.definition.version_data).toMatchObject({ not_versioned: false, default_version: 'old' });
    expect(versioned.warnings.join('\n')).toMatch(/was not versioned: it now selects the version by header x-api-version \(default old\)/);
  });

  it('refuses an existing definition that is not a Classic definition', async () => {
    await expect(importVersion({ proxy: {} }, { format: 'swagger', document: v3 }, { versionName: 'x' })).rejects.toThrow(
      /existing API \(api_id \(--for-api\)\) is not a valid Classic API definition: name/,
    );
  });
});
