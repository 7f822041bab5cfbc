// Tyk OAS's per-operation allow, block and ignoreAuthentication compiled into the version's endpoint lists, as the
// Classic white_list, black_list and ignored entries of the operation's path and method.
import { describe, expect, it } from 'vitest';
import { OasDocument } from '../../domain/oas.ts';
import { DEFAULT_VERSION } from './from-classic.ts';
import { oasToSpec } from './from-oas.ts';

const document = (operations: Record<string, unknown>, gwOperations?: Record<string, unknown>) =>
  OasDocument.parse({
    openapi: '3.0.3',
    info: { title: 'shop', version: '1' },
    paths: {
      '/admin': { get: { operationId: 'adminGET', responses: {} }, post: { operationId: 'adminPOST', responses: {} } },
      '/pets/{id}': { get: { operationId: 'getPet', responses: {} } },
      '/health': { get: { operationId: 'health', responses: {} } },
    },
    'x-gw-api-gateway': {
      info: { name: 'shop', state: { active: true } },
      upstream: { url: 'http://upstream.test' },
      server: { listenPath: { value: '/shop/', strip: true } },
      middleware: { operations },
      ...(gwOperations ? { operations: gwOperations } : {}),
    },
  });

const listsOf = (doc: OasDocument) => oasToSpec(doc, 'shop').versions.get(DEFAULT_VERSION)!;

describe('OAS allow, block and ignoreAuthentication', () => {
  it("blocks the operation's method (and HEAD with GET) on its path, every spelling and sub-resource of it", () => {
    const { blackList, whiteList, ignored } = listsOf(document({ adminGET: { block: { enabled: true } } }));
    expect([whiteList.length, ignored.length]).toEqual([0, 0]);
    const [entry] = blackList;
    expect([...entry!.methods]).toEqual(['GET', 'HEAD']);
    expect(['/admin', '/Admin', '/admin/users', '/admin;x', '/administrator'].map((path) => entry!.pattern.test(path))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('allows and ignores authentication on the path itself, a {name} matching one segment, ignoreCase honoured', () => {
    const { whiteList, ignored } = listsOf(
      document({ getPet: { allow: { enabled: true } }, health: { ignoreAuthentication: { enabled: true, ignoreCase: true } } }),
    );
    expect([...whiteList[0]!.methods]).toEqual(['GET']);
    expect(['/pets/7', '/pets/7/owner', '/Pets/7'].map((path) => whiteList[0]!.pattern.test(path))).toEqual([true, false, false]);
    expect(['/health', '/HEALTH'].map((path) => ignored[0]!.pattern.test(path))).toEqual([true, true]);
  });

  it("skips a disabled allowance, and reads operations at gw's location as well as Tyk's", () => {
    const { blackList } = listsOf(document({ adminGET: { block: { enabled: false } } }, { adminPOST: { block: { enabled: true } } }));
    expect(blackList.map((entry) => [...entry.methods])).toEqual([['POST']]);
  });
});
