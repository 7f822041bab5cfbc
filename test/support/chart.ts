// The operator's install manifests in tests: `helm template` of charts/gw-operator and `kubectl kustomize` of config/,
// run with the real binaries of the global setup, parsed into objects. Integration tests only (inject('binDir')).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../../src/up/paths.ts';
import { runTool } from './kubectl.ts';

export const CHART_DIR = join(REPO_ROOT, 'charts', 'gw-operator');
export const RELEASE = 'gw-operator';
export const RELEASE_NAMESPACE = 'gw-operator-system';

export interface KubeManifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

export interface Container {
  name: string;
  image: string;
  args: string[];
  env?: EnvVar[];
  envFrom?: { secretRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  resources?: Record<string, unknown>;
  securityContext?: Record<string, unknown>;
}

export interface PodSpec {
  containers: Container[];
  volumes?: { name: string; [source: string]: unknown }[];
  hostNetwork?: boolean;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  imagePullSecrets?: { name: string }[];
  serviceAccountName: string;
  securityContext?: Record<string, unknown>;
}

export interface Deployment extends KubeManifest {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  };
}

export interface Webhook {
  name: string;
  clientConfig: { service?: { name: string; namespace: string; path: string }; url?: string; caBundle?: string };
  rules: { resources: string[]; operations: string[] }[];
  namespaceSelector?: { matchLabels?: Record<string, string> };
}

export interface WebhookConfiguration extends KubeManifest {
  webhooks: Webhook[];
}

export interface Rendered {
  /** The command's output, as helm or kubectl printed it. */
  text: string;
  objects: KubeManifest[];
}

export function parseManifests(text: string): KubeManifest[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as KubeManifest | null)
    .filter((object): object is KubeManifest => object != null);
}

/** `helm template gw-operator charts/gw-operator -n <namespace> <args...>`. */
export async function helmTemplate(args: string[] = [], namespace = RELEASE_NAMESPACE): Promise<Rendered> {
  const { stdout } = await runTool('helm', ['template', RELEASE, CHART_DIR, '-n', namespace, ...args]);
  return { text: stdout, objects: parseManifests(stdout) };
}

/**
 * The chart's NOTES.txt as `helm template <args...>` would render it, for what `helm install` cannot be told
 * (--api-versions): a copy of the chart renders the NOTES into a ConfigMap through `tpl`.
 */
export async function helmTemplateNotes(args: string[] = []): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-chart-notes-'));
  try {
    const chart = join(dir, 'gw-operator');
    cpSync(CHART_DIR, chart, { recursive: true });
    cpSync(join(chart, 'templates', 'NOTES.txt'), join(chart, 'notes.tpl'));
    writeFileSync(
      join(chart, 'templates', 'rendered-notes.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ tpl (.Files.Get "notes.tpl") . | toJson }}\n',
    );
    const { stdout } = await runTool('helm', ['template', RELEASE, chart, '-n', RELEASE_NAMESPACE, '--show-only', 'templates/rendered-notes.yaml', ...args]);
    return find<KubeManifest & { data: { notes: string } }>(parseManifests(stdout), 'ConfigMap').data.notes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `kubectl kustomize config/<dir>`. */
export async function kustomize(dir: string): Promise<Rendered> {
  const { stdout } = await runTool('kubectl', ['kustomize', join(REPO_ROOT, 'config', dir)]);
  return { text: stdout, objects: parseManifests(stdout) };
}

export function find<T extends KubeManifest = KubeManifest>(objects: KubeManifest[], kind: string, name?: string): T {
  const found = objects.find((object) => object.kind === kind && (name === undefined || object.metadata.name === name));
  if (!found) throw new Error(`no ${kind}${name ? ` ${name}` : ''} among ${objects.map(identity).join(', ')}`);
  return found as T;
}

/** "Kind namespace/name" (cluster-scoped: "Kind name"). */
export function identity(object: KubeManifest): string {
  return `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}

export function manager(objects: KubeManifest[]): Container {
  const container = find<Deployment>(objects, 'Deployment').spec.template.spec.containers.find((c) => c.name === 'manager');
  if (!container) throw new Error('the Deployment has no container "manager"');
  return container;
}
