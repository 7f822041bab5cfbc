// spec.tls of an Ingress: the certificate of a host listed in `spec.tls[].hosts` comes from its kubernetes.io/tls
// Secret through the operator's certificate Secrets (../certificate-secrets.ts: read, checked, uploaded by
// fingerprint); the id goes on the route's API (`certificates`, or the OAS custom domain's), where the gateway's
// HTTPS listener presents it for the host by SNI. The Secret is watched: a rotation re-reconciles the Ingress.
import type { CertificateSecrets } from '../sync/certificate-secrets.ts';
import type { GatewayHandle } from '../sync/gateways.ts';
import type { IngressObject } from './kinds.ts';

export type CertificateResult = { id: string } | { problem: string } | undefined;

/** `<namespace>/<secretName>` of every Secret the Ingress's spec.tls names (the Secrets index). */
export function ingressTlsSecrets(ingress: IngressObject): string[] {
  const namespace = ingress.metadata.namespace ?? 'default';
  return [...new Set((ingress.spec.tls ?? []).flatMap((tls) => (tls.secretName ? [`${namespace}/${tls.secretName}`] : [])))];
}

export class IngressCertificates {
  readonly #secrets: CertificateSecrets;

  constructor(secrets: CertificateSecrets) {
    this.#secrets = secrets;
  }

  /** The certificate id for a host of the Ingress (undefined: the host is not in spec.tls). */
  async forHost(ingress: IngressObject, host: string, gateway: GatewayHandle, signal: AbortSignal): Promise<CertificateResult> {
    const entry = (ingress.spec.tls ?? []).find((tls) => host !== '' && (tls.hosts ?? []).map((h) => h.toLowerCase()).includes(host));
    if (!entry) return undefined;
    if (!entry.secretName) return { problem: `spec.tls: host ${host} has no secretName` };
    const found = await this.#secrets.certificateOf(ingress.metadata.namespace ?? 'default', entry.secretName, gateway, signal);
    return 'id' in found ? found : { problem: `spec.tls: ${found.problem} (host ${host})` };
  }
}
