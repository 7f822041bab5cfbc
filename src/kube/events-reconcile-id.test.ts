// EventRecorder and reconcile ids: an Event recorded inside a reconcile carries its id in gw.io/reconcile-id, a repeat
// from a later reconcile moves the annotation to that reconcile's id, and one recorded outside any reconcile has none.
// The Kubernetes client is a recording fake (this module's only collaborator); the real apiserver path is covered by
// test/integration/operator/observability.test.ts.
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { KubeClient } from './client.ts';
import { EventRecorder } from './events.ts';
import type { KubeObject } from './object.ts';
import { inReconcile } from './reconcile-id.ts';

function recordingClient() {
  const created: KubeObject[] = [];
  const patches: unknown[] = [];
  const client = {
    create: async (_resource: unknown, object: KubeObject) => (
      created.push(object),
      { ...object, metadata: { ...object.metadata, name: `event-${created.length}` } }
    ),
    mergePatch: async (_resource: unknown, _namespace: unknown, _name: unknown, patch: unknown) => (patches.push(patch), {}),
  };
  return { client: client as unknown as KubeClient, created, patches };
}

const object: KubeObject = { apiVersion: 'gw.io/v1alpha1', kind: 'ApiDefinition', metadata: { name: 'httpbin', namespace: 'ns', uid: 'u1' } };

describe('EventRecorder reconcile ids', () => {
  it('annotates an Event with the reconcile that recorded it, and a repeat with the latest reconcile', async () => {
    const { client, created, patches } = recordingClient();
    const recorder = new EventRecorder(client, 'gw-operator', pino({ level: 'silent' }));
    inReconcile('11111111-1111-4111-8111-111111111111', () => recorder.record(object, 'Warning', 'SyncFailed', 'boom'));
    await vi.waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]!.metadata.annotations).toEqual({ 'gw.io/reconcile-id': '11111111-1111-4111-8111-111111111111' });
    inReconcile('22222222-2222-4222-8222-222222222222', () => recorder.record(object, 'Warning', 'SyncFailed', 'boom'));
    await vi.waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ count: 2, metadata: { annotations: { 'gw.io/reconcile-id': '22222222-2222-4222-8222-222222222222' } } });
  });

  it('adds no annotation to an Event recorded outside a reconcile', async () => {
    const { client, created } = recordingClient();
    new EventRecorder(client, 'gw-operator', pino({ level: 'silent' })).record(object, 'Normal', 'Created', 'made');
    await vi.waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]!.metadata).not.toHaveProperty('annotations');
  });
});
