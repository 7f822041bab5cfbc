// oneIdSpace: ids shared by two organisations are renamed for the later one, with every reference of that
// organisation (policies' and keys' access_rights, keys' apply_policies and apply_policy_id); others untouched; a key
// value held by several organisations served once.
import { describe, expect, it } from 'vitest';
import { oneIdSpace, oneKeyPerStorageId } from './node-ids.ts';

describe('oneIdSpace', () => {
  it('renames the later owner of a shared API or policy id and its references only', () => {
    const rights = (id: string) => ({ [id]: { api_id: id, versions: ['Default'] } });
    const content = oneIdSpace({
      apis: [
        { id: 'x', org_id: 'a', format: 'classic', definition: {} },
        { id: 'x', org_id: 'b', format: 'classic', definition: {} },
        { id: 'y', org_id: 'b', format: 'classic', definition: {} },
      ],
      policies: [
        { id: 'p', org_id: 'a', access_rights: rights('x') },
        { id: 'p', org_id: 'b', access_rights: { ...rights('x'), ...rights('y') } },
      ],
      keys: [
        { storage_id: 'ka', org_id: 'a', hashed: true, session: { access_rights: rights('x'), apply_policies: ['p'] } },
        { storage_id: 'kb', org_id: 'b', hashed: true, session: { access_rights: rights('x'), apply_policies: ['p'], apply_policy_id: 'p' } },
      ],
    });
    expect(content.apis.map((api) => `${api.org_id}:${api.id}`)).toEqual(['a:x', 'b:x~b', 'b:y']);
    expect(content.policies).toEqual([
      { id: 'p', org_id: 'a', access_rights: rights('x') },
      { id: 'p~b', org_id: 'b', access_rights: { ...rights('x~b'), ...rights('y') } },
    ]);
    expect(content.keys[0]!.session).toEqual({ access_rights: rights('x'), apply_policies: ['p'] });
    expect(content.keys[1]!.session).toEqual({ access_rights: rights('x~b'), apply_policies: ['p~b'], apply_policy_id: 'p~b' });
  });

  it('serves a key value several organisations hold for the first (oldest) row only, naming the shadowed organisations', () => {
    const key = (storage_id: string, org_id: string) => ({ storage_id, org_id, hashed: true, session: { org_id } });
    const keys = [key('k', 'a'), key('k', 'b'), key('m', 'b'), key('m', 'c')];
    const content = oneIdSpace({ apis: [], policies: [], keys });
    expect(content.keys.map((k) => `${k.org_id}:${k.storage_id}`)).toEqual(['a:k', 'b:m']);
    expect([...oneKeyPerStorageId(keys).shadowedOrgs]).toEqual(['b', 'c']);
  });

  it('leaves content without shared ids as it is', () => {
    const content = { apis: [{ id: 'x', org_id: 'a', format: 'oas', definition: {} }], policies: [], keys: [] };
    expect(oneIdSpace(content)).toBe(content);
  });
});
