// Which request paths an OAS operation's allow and ignoreAuthentication cover: the operation's own path as OpenAPI
// templates it (a {name} is one segment, never a `/`) and not a concrete path the document gives another operation,
// so neither opens a neighbouring operation that needs authentication. A block still covers every spelling and
// sub-resource of its path (oas-allowances.test.ts).
import { describe, expect, it } from 'vitest';
import { OasDocument } from '../../domain/oas.ts';
import { DEFAULT_VERSION } from './from-classic.ts';
import { oasToSpec } from './from-oas.ts';

const op = (operationId: string) => ({ operationId, responses: {} });

const shop = (operations: Record<string, unknown>) =>
  oasToSpec(
    OasDocument.parse({
      openapi: '3.0.3',
      info: { title: 'shop', version: '1' },
      paths: {
        '/pets/{id}': { get: op('getPet') },
        '/pets/{id}/owner': { get: op('getPetOwner') },
        '/pets/mine': { get: op('getMyPets'), post: op('addMyPet') },
        '/files/{name}.json': { get: op('getFile') },
      },
      'x-gw-api-gateway': {
        info: { name: 'shop', state: { active: true } },
        upstream: { url: 'http://upstream.test' },
        server: { listenPath: { value: '/shop/', strip: true } },
        middleware: { operations },
      },
    }),
    'shop',
  ).versions.get(DEFAULT_VERSION)!;

const covered = (entry: { pattern: { test(path: string): boolean } } | undefined, paths: string[]) =>
  Object.fromEntries(paths.map((path) => [path, entry!.pattern.test(path)]));

describe('OAS allow and ignoreAuthentication paths', () => {
  it("ignores authentication on one segment for {id}: not on the neighbour /pets/{id}/owner, an empty id or a trailing '/'", () => {
    const [ignored] = shop({ getPet: { ignoreAuthentication: { enabled: true } } }).ignored;
    expect(covered(ignored, ['/pets/7', '/pets/7;x', '/pets/7/owner', '/pets/7/', '/pets/', '/pets//owner', '/pets/7/owner/x'])).toEqual({
      '/pets/7': true,
      '/pets/7;x': true,
      '/pets/7/owner': false,
      '/pets/7/': false,
      '/pets/': false,
      '/pets//owner': false,
      '/pets/7/owner/x': false,
    });
  });

  it('leaves a concrete path of another operation to that operation, in every spelling an upstream reads as it', () => {
    const { ignored, whiteList } = shop({ getPet: { ignoreAuthentication: { enabled: true, ignoreCase: true }, allow: { enabled: true } } });
    expect(covered(ignored[0], ['/pets/mine', '/pets/MINE', '/pets/mine;x', '/pets/mine.', '/pets/mine.json', '/PETS/7', '/pets/miner'])).toEqual({
      '/pets/mine': false,
      '/pets/MINE': false,
      '/pets/mine;x': false,
      '/pets/mine.': false,
      '/pets/mine.json': false,
      '/PETS/7': true,
      '/pets/miner': true,
    });
    expect(covered(whiteList[0], ['/pets/mine', '/pets/7', '/pets/7/owner'])).toEqual({ '/pets/mine': false, '/pets/7': true, '/pets/7/owner': false });
  });

  it('matches a {name} inside a segment within that segment only', () => {
    const [ignored] = shop({ getFile: { ignoreAuthentication: { enabled: true } } }).ignored;
    expect(covered(ignored, ['/files/a.json', '/files/a/b.json', '/files/.json'])).toEqual({
      '/files/a.json': true,
      '/files/a/b.json': false,
      '/files/.json': false,
    });
  });
});
