// The rule for certificate store ids named in an API definition (`certificates`, served by SNI for the API's
// domain; `client_certificates`, the mTLS allow-list): each is a non-empty id without spaces or commas (an id is
// org id + SHA-256 hex of the leaf, as /gw/certs answers it). Shared by the gateway (which loads them) and the
// admission webhook, so both refuse the same definitions with the same words.

/** Fields of a Classic definition holding certificate store ids. */
export const CERTIFICATE_ID_FIELDS = ['certificates', 'client_certificates'] as const;

/** The first bad entry as [index, problem] ("<field>[i] ..."), or undefined when every id is usable. */
export function certificateIdProblem(ids: readonly unknown[]): [number, string] | undefined {
  for (const [index, id] of ids.entries()) {
    if (typeof id !== 'string' || !/^[^\s,]+$/.test(id))
      return [index, 'must be a certificate id as /gw/certs answers it (org id + SHA-256 hex), without spaces or commas'];
  }
  return undefined;
}
