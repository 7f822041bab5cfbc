// HMAC request signing settings (enable_signature_checking, hmac_allowed_algorithms): which algorithms the gateway
// verifies. Shared by the gateway (which loads them) and the admission webhook (which refuses what the gateway
// would), so both apply one rule.

export const HMAC_ALGORITHMS = ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];

/** The first entry of hmac_allowed_algorithms the gateway cannot verify, with why; undefined when all are known. */
export function unknownHmacAlgorithm(allowed: readonly unknown[]): { index: number; value: string; problem: string } | undefined {
  for (const [index, value] of allowed.entries()) {
    const name = typeof value === 'string' ? value.toLowerCase() : String(value);
    if ((HMAC_ALGORITHMS as readonly string[]).includes(name)) continue;
    const problem = name === 'rsa-sha256' ? 'rsa-sha256 signatures are not supported by this gateway yet' : `must be one of ${HMAC_ALGORITHMS.join(', ')}`;
    return { index, value: name, problem };
  }
  return undefined;
}
