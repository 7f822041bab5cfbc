// The local control plane does what the suites rely on: the versions we built, RBAC, namespaces that terminate,
// garbage collection by ownerReference, and ServiceAccount tokens (TokenRequest).
import { describe, expect, it } from 'vitest';
import { kubectl, runTool, useNamespace } from '../support/kubectl.ts';

describe('local control plane', () => {
  const ns = useNamespace('cp');

  it('reports the Kubernetes version it was built from, to kubectl and to helm', async () => {
    const { stdout } = await kubectl(['version', '-o', 'json']);
    const version = JSON.parse(stdout) as { clientVersion: { gitVersion: string }; serverVersion: { gitVersion: string; major: string; minor: string } };
    expect(version.serverVersion.gitVersion).toMatch(/^v1\.36\.\d+$/);
    expect(version.serverVersion).toMatchObject({ major: '1', minor: '36' });
    expect(version.clientVersion.gitVersion).toBe(version.serverVersion.gitVersion);
    const helm = await runTool('helm', ['version', '--short']);
    expect(helm.stdout).toMatch(/^v3\.\d+\.\d+/);
  });

  it('enforces RBAC: a ServiceAccount without roles is forbidden, and its token authenticates', async () => {
    await kubectl(['-n', ns.name, 'create', 'serviceaccount', 'nobody']);
    const token = (await kubectl(['-n', ns.name, 'create', 'token', 'nobody', '--duration=10m'])).stdout.trim();
    expect(token.split('.')).toHaveLength(3); // a signed JWT from the TokenRequest API
    const denied = await kubectl(['--token', token, '-n', ns.name, 'get', 'configmaps'], { allowFailure: true });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(`system:serviceaccount:${ns.name}:nobody`);
    expect(denied.stderr).toContain('forbidden');
    await kubectl(['-n', ns.name, 'create', 'role', 'cm-reader', '--verb=list', '--resource=configmaps']);
    await kubectl(['-n', ns.name, 'create', 'rolebinding', 'cm-reader', '--role=cm-reader', `--serviceaccount=${ns.name}:nobody`]);
    const allowed = await kubectl(['--token', token, '-n', ns.name, 'get', 'configmaps']);
    expect(allowed.code).toBe(0);
  });

  it('collects objects whose owner is deleted', async () => {
    await kubectl(['-n', ns.name, 'create', 'configmap', 'owner']);
    const uid = (await kubectl(['-n', ns.name, 'get', 'configmap', 'owner', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const child = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'child', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid }] },
    };
    await kubectl(['-n', ns.name, 'apply', '-f', '-'], { input: JSON.stringify(child) });
    await kubectl(['-n', ns.name, 'delete', 'configmap', 'owner']);
    await kubectl(['-n', ns.name, 'wait', '--for=delete', 'configmap/child', '--timeout=60s']);
  });

  it('finishes deleting a namespace with objects in it', async () => {
    const doomed = `${ns.name}-gone`;
    await kubectl(['create', 'namespace', doomed]);
    await kubectl(['-n', doomed, 'create', 'configmap', 'something']);
    await kubectl(['delete', 'namespace', doomed, '--timeout=60s']);
    const after = await kubectl(['get', 'namespace', doomed], { allowFailure: true });
    expect(after.stderr).toContain('NotFound');
  });
});
