// kubernetes.io/tls Secrets as certificates on a gateway (or dashboard): the one place the operator reads a
// certificate Secret and uploads it, shared by the API kinds (certificate_secret_names, *_certificate_refs,
// pinned_public_keys_refs, the GwOas equivalents) and the Ingress controller (spec.tls).
//   - A Secret is read from the Secrets informer's cache (only kubernetes.io/tls Secrets are watched); one not there
//     is read once from the apiserver, which tells a missing Secret from one of another type (and covers a Secret
//     the informer has not delivered yet).
//   - tls.crt and tls.key must both be there; they are uploaded together (POST /gw/certs or /api/certs), and the
//     id the service answers (org id + SHA-256 fingerprint of the leaf) is what the definition names. Uploading
//     the same certificate again is a no-op on the service; an upload happens once per Secret version and gateway
//     (one entry per Secret and gateway is remembered, so memory does not grow with rotations). A rotated Secret is
//     a new fingerprint, so a new id: the definition changes and the gateway serves the new certificate.
// Never puts the Secret's content in a message, log, status or Event: problems name the Secret and the key only.
import type { Cache } from '../../kube/cache.ts';
import type { KubeClient } from '../../kube/client.ts';
import { isNotFound } from '../../kube/errors.ts';
import { keyOf } from '../../kube/object.ts';
import { CoreResources } from '../../kube/resource.ts';
import { MgmtError } from '../../mgmt/client.ts';
import { InvalidSpecError, WaitingError } from './errors.ts';
import type { GatewayHandle } from './gateways.ts';
import type { SecretObject } from '../cluster/resources.ts';

export const TLS_SECRET_TYPE = 'kubernetes.io/tls';
/** The informer's field selector: only certificate Secrets are cached (not every token and password). */
export const TLS_SECRET_SELECTOR = `type=${TLS_SECRET_TYPE}`;

/** Why a Secret gave no certificate: it does not exist (yet), or it cannot be used as it is. */
export type SecretProblem = { problem: string; missing: boolean };
export type SecretCertificate = { id: string } | SecretProblem;

/** A Secret a resource names, and the field naming it (for messages: "spec.certificate_secret_names[0]"). */
export interface SecretReference {
  name: string;
  field: string;
}

export class CertificateSecrets {
  readonly #secrets: Cache<SecretObject>;
  readonly #kube: KubeClient;
  /** `<gateway key>|<namespace>/<secret>` -> the Secret version last uploaded there and the id it got. */
  readonly #uploaded = new Map<string, { resourceVersion: string; id: string }>();

  constructor(secrets: Cache<SecretObject>, kube: KubeClient) {
    this.#secrets = secrets;
    this.#kube = kube;
  }

  /** The id of the Secret's certificate on the gateway (uploaded when this version is not there yet), or why none. */
  async certificateOf(namespace: string, name: string, gateway: GatewayHandle, signal?: AbortSignal): Promise<SecretCertificate> {
    const secretKey = keyOf(namespace, name);
    let secret = this.#secrets.get(secretKey);
    if (!secret) {
      try {
        secret = await this.#kube.get<SecretObject>(CoreResources.secret, namespace, name, signal ? { signal } : {});
      } catch (error) {
        if (isNotFound(error)) return { problem: `Secret ${secretKey} does not exist`, missing: true };
        throw error;
      }
    }
    if (secret.type !== TLS_SECRET_TYPE)
      return { problem: `Secret ${secretKey} is of type ${secret.type ?? 'Opaque'}, not ${TLS_SECRET_TYPE}`, missing: false };
    const memoKey = `${gateway.key}|${secretKey}`;
    const resourceVersion = secret.metadata.resourceVersion ?? '';
    const known = this.#uploaded.get(memoKey);
    if (known && known.resourceVersion === resourceVersion) return { id: known.id };
    const certificate = secret.data?.['tls.crt'];
    const privateKey = secret.data?.['tls.key'];
    for (const [key, value] of [
      ['tls.crt', certificate],
      ['tls.key', privateKey],
    ] as const) {
      if (!value) return { problem: `Secret ${secretKey} has no ${key}`, missing: false };
    }
    const pem = [certificate!, privateKey!].map((part) => Buffer.from(part, 'base64').toString('utf8').trim()).join('\n');
    let id: string;
    try {
      id = await gateway.client.uploadCertificate(pem, gateway.env.org, signal);
    } catch (error) {
      if (error instanceof MgmtError && error.kind === 'invalid')
        return { problem: `the certificate of Secret ${secretKey} was refused: ${error.message}`, missing: false };
      throw error;
    }
    this.#uploaded.set(memoKey, { resourceVersion, id });
    return { id };
  }

  /**
   * The ids of every Secret a synced resource names, by Secret name. A missing Secret is a WaitingError (the
   * resource waits and is reconciled again when it appears), an unusable one an InvalidSpecError; both name the
   * Secret and the field, with the reason SecretNotFound / InvalidSecret.
   */
  async resolve(namespace: string, references: SecretReference[], gateway: GatewayHandle, signal?: AbortSignal): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const { name, field } of references) {
      if (ids.has(name)) continue;
      const found = await this.certificateOf(namespace, name, gateway, signal);
      if ('id' in found) {
        ids.set(name, found.id);
        continue;
      }
      const message = `${field}: ${found.problem}`;
      throw found.missing ? new WaitingError(message, 'SecretNotFound') : new InvalidSpecError(message, 'InvalidSecret');
    }
    return ids;
  }
}
