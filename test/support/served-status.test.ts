// served-status.ts's verdicts on a stand-in gateway (its management API and proxy answered from tables): an object
// that says Ready is reported unless the gateway really serves it, and one that is not Ready must say why; so the
// every-sample suite's "every status is true" cannot pass by not looking.
import { describe, expect, it } from 'vitest';
import type { HttpResult, RunningGateway } from './gateway.ts';
import { GW_KINDS, untrueStatuses, type GwObject } from './served-status.ts';

const answer = (status: number, body: unknown = {}): HttpResult => ({
  status,
  headers: {},
  text: JSON.stringify(body),
  json: <T>() => body as T,
});

/** A gateway knowing these APIs (id -> listen path), these policies, with these load problems and these 404 paths. */
function standIn(apis: Record<string, string>, policies: string[], problems: string[], missingPaths: string[] = []): RunningGateway {
  return {
    admin: async (_method: string, path: string) => {
      if (path === '/gw/load-problems') return answer(200, { problems: problems.map((id) => ({ id, message: `cannot serve api ${id}` })) });
      const api = /^\/gw\/apis\/(.+)$/.exec(path);
      if (api) return apis[decodeURIComponent(api[1]!)] ? answer(200, { proxy: { listen_path: apis[decodeURIComponent(api[1]!)] } }) : answer(404);
      const policy = /^\/gw\/policies\/(.+)$/.exec(path);
      return policy && policies.includes(decodeURIComponent(policy[1]!)) ? answer(200) : answer(404);
    },
    call: async (path: string) => answer(missingPaths.includes(path) ? 404 : 200),
  } as unknown as RunningGateway;
}

const readyTrue = { conditions: [{ type: 'Ready', status: 'True', reason: 'Synced', message: '' }], latestTransaction: { status: 'Successful' } };
const object = (kind: string, name: string, status: Record<string, unknown>, spec: Record<string, unknown> = {}): GwObject => ({
  kind,
  metadata: { name, namespace: 'ns', resourceVersion: '1' },
  spec,
  status,
});

describe('untrueStatuses', () => {
  it('covers every CRD of config/crd/bases', () => {
    expect(GW_KINDS).toEqual(expect.arrayContaining(['apidefinitions', 'securitypolicies', 'subgraphs', 'portalconfigs']));
  });

  it('accepts Ready objects the gateway serves and not-Ready ones that say why', async () => {
    const objects = [
      object('ApiDefinition', 'a', { ...readyTrue, api_id: 'a1' }),
      object('SecurityPolicy', 'p', { ...readyTrue, pol_id: 'p1' }),
      object('ApiDefinition', 'b', { conditions: [{ type: 'Ready', status: 'False', reason: 'SecretNotFound', message: 'no Secret x' }] }),
      object('ApiDefinition', 'tpl', { ingressTemplate: true }, { proxy: { listen_path: '/tpl' } }),
    ];
    // The template's listen path is no route of the gateway: 404.
    expect(await untrueStatuses(objects, { gateway: standIn({ a1: '/a/' }, ['p1'], [], ['/tpl']), elsewhere: {} })).toEqual([]);
  });

  it('reports each Ready object the gateway does not serve, saying why', async () => {
    const gateway = standIn({ a1: '/a/', c1: '/c/' }, [], ['a1'], ['/c/', '/tpl']);
    const lines = await untrueStatuses(
      [
        object('ApiDefinition', 'conflicting', { ...readyTrue, api_id: 'a1' }),
        object('ApiDefinition', 'unknown', { ...readyTrue, api_id: 'zz' }),
        object('ApiDefinition', 'not-routed', { ...readyTrue, api_id: 'c1' }),
        object('SecurityPolicy', 'missing', { ...readyTrue, pol_id: 'p9' }),
        object('SubGraph', 'orphan', readyTrue),
        object('PortalConfig', 'portal', readyTrue),
        object('ApiDefinition', 'silent', {}),
      ],
      { gateway, elsewhere: {} },
    );
    expect(lines).toEqual([
      'ApiDefinition ns/conflicting says Ready/Successful but is not served: the gateway reports a load problem for a1: cannot serve api a1',
      'ApiDefinition ns/unknown says Ready/Successful but is not served: the gateway does not know API zz (404)',
      expect.stringContaining('ApiDefinition ns/not-routed says Ready/Successful but is not served: its listen path /c/ answers 404'),
      'SecurityPolicy ns/missing says Ready/Successful but is not served: the gateway does not know policy p9 (404)',
      'SubGraph ns/orphan says Ready/Successful but is not served: no API id in its status',
      'PortalConfig ns/portal says Ready/Successful but is not served: no check for kind PortalConfig: add one to elsewhere',
      'ApiDefinition ns/silent is not Ready but its status does not say why: {}',
    ]);
  });

  it('reports an Ingress template the gateway serves', async () => {
    const template = object('ApiDefinition', 'tpl', { ingressTemplate: true }, { proxy: { listen_path: '/tpl' } });
    expect(await untrueStatuses([template], { gateway: standIn({}, [], []), elsewhere: {} })).toEqual([
      'ApiDefinition ns/tpl is an Ingress template, yet its listen path /tpl answers 200',
    ]);
  });
});
