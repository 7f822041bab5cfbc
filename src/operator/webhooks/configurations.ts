// The MutatingWebhookConfiguration and ValidatingWebhookConfiguration that point the apiserver at our webhooks,
// built from handlers.ts's list so a path, name or rule is written in one place. Used by tests, and by whoever
// renders them for a cluster (the chart's templates must agree with what this produces). Values, not API calls.
import { GROUP, VERSION } from '../../domain/crd/meta.ts';
import { WEBHOOKS, type Webhook, type WebhookType } from './handlers.ts';

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export type WebhookEndpoint =
  /** The server's base URL (https://host:port); each webhook appends its path. */
  | { url: string }
  /** A Service in front of the operator (the chart's case). */
  | { service: { name: string; namespace: string; port?: number } };

export interface WebhookConfigurationOptions {
  /** metadata.name of both configurations. */
  name: string;
  endpoint: WebhookEndpoint;
  /** PEM of the CA that signed the serving certificate; omit when cert-manager's CA injector fills it in. */
  caPem?: string;
  /** Only objects in namespaces matching this selector are sent (default: every namespace). */
  namespaceSelector?: LabelSelector;
  /** Fail (default): a webhook that cannot be reached refuses writes; Ignore lets them through unchecked. */
  failurePolicy?: 'Fail' | 'Ignore';
  /** 1-30 (default 10). */
  timeoutSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface WebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  webhooks: Record<string, unknown>[];
}

export function webhookConfigurations(options: WebhookConfigurationOptions): { mutating: WebhookConfiguration; validating: WebhookConfiguration } {
  return { mutating: configuration('mutating', options), validating: configuration('validating', options) };
}

function configuration(type: WebhookType, options: WebhookConfigurationOptions): WebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: {
      name: options.name,
      ...(options.labels ? { labels: options.labels } : {}),
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    webhooks: WEBHOOKS.filter((w) => w.type === type).map((webhook) => entry(webhook, options)),
  };
}

function entry(webhook: Webhook, options: WebhookConfigurationOptions): Record<string, unknown> {
  const clientConfig: Record<string, unknown> =
    'url' in options.endpoint
      ? { url: `${options.endpoint.url.replace(/\/+$/, '')}${webhook.path}` }
      : { service: { ...options.endpoint.service, path: webhook.path } };
  if (options.caPem) clientConfig.caBundle = Buffer.from(options.caPem).toString('base64');
  return {
    name: webhook.name,
    admissionReviewVersions: ['v1'],
    clientConfig,
    rules: [{ apiGroups: [GROUP], apiVersions: [VERSION], operations: ['CREATE', 'UPDATE'], resources: [webhook.resource], scope: 'Namespaced' }],
    failurePolicy: options.failurePolicy ?? 'Fail',
    matchPolicy: 'Equivalent',
    sideEffects: 'None',
    timeoutSeconds: options.timeoutSeconds ?? 10,
    ...(options.namespaceSelector ? { namespaceSelector: options.namespaceSelector } : {}),
    ...(webhook.type === 'mutating' ? { reinvocationPolicy: 'Never' } : {}),
  };
}
