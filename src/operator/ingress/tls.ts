// spec.tls of an Ingress: the certificate of a host listed in `spec.tls[].hosts` is read from its
// kubernetes.io/tls Secret (tls.crt, then tls.key) and uploaded to the route's gateway (/gw/certs or the
// dashboard's /api/certs); the id it answers goes on the route's API (`certificates`, or the OAS custom domain's),
// where the gateway's HTTPS listener presents it for the host by SNI. An upload happens once per Secret version and
// gateway (one entry per Secret and gateway is remembered, so the memory does not grow with rotations); the
// Secret's content never appears in a message, log or status.
import type { KubeClient } from '../../kube/client.ts';
import { isNotFound } from '../../kube/errors.ts';
import { CoreResources } from '../../kube/resource.ts';
import { MgmtError } from '../../mgmt/client.ts';
import type { GatewayHandle } from '../gateways.ts';
import type { SecretObject } from '../resources.ts';
import type { IngressObject } from './kinds.ts';

export type CertificateResult = { id: string } | { problem: string } | undefined;

export class IngressCertificates {
  readonly #kube: KubeClient;
  /** `<gateway key>|<namespace>/<secret>` -> the Secret version last uploaded there and the id it got. */
  readonly #uploaded = new Map<string, { resourceVersion: string; id: string }>();

  constructor(kube: KubeClient) {
    this.#kube = kube;
  }

  /** The certificate id for a host of the Ingress (undefined: the host is not in spec.tls). */
  async forHost(ingress: IngressObject, host: string, gateway: GatewayHandle, signal: AbortSignal): Promise<CertificateResult> {
    const entry = (ingress.spec.tls ?? []).find((tls) => host !== '' && (tls.hosts ?? []).map((h) => h.toLowerCase()).includes(host));
    if (!entry) return undefined;
    const namespace = ingress.metadata.namespace ?? 'default';
    if (!entry.secretName) return { problem: `spec.tls: host ${host} has no secretName` };
    let secret: SecretObject;
    try {
      secret = await this.#kube.get<SecretObject>(CoreResources.secret, namespace, entry.secretName, { signal });
    } catch (error) {
      if (isNotFound(error)) return { problem: `spec.tls: Secret ${namespace}/${entry.secretName} (host ${host}) does not exist` };
      throw error;
    }
    const key = `${gateway.key}|${namespace}/${entry.secretName}`;
    const resourceVersion = secret.metadata.resourceVersion ?? '';
    const known = this.#uploaded.get(key);
    if (known?.resourceVersion === resourceVersion) return { id: known.id };
    const certificate = secret.data?.['tls.crt'];
    if (!certificate) return { problem: `spec.tls: Secret ${namespace}/${entry.secretName} has no tls.crt` };
    const privateKey = secret.data?.['tls.key'];
    const pem = [certificate, privateKey].filter((part): part is string => part !== undefined).map((part) => Buffer.from(part, 'base64').toString('utf8').trim()).join('\n');
    let id: string;
    try {
      id = await gateway.client.uploadCertificate(pem, gateway.env.org, signal);
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'invalid') return { problem: `spec.tls: the certificate of Secret ${namespace}/${entry.secretName} was refused: ${error.message}` };
      throw error;
    }
    this.#uploaded.set(key, { resourceVersion, id });
    return { id };
  }
}
