// auth_configs.authToken.signature (validate_signature) -> the settings the gateway checks request signatures with,
// Tyk's defaults applied (docs/compatibility.md). Shared by the gateway (which loads it) and the admission
// webhook (which refuses what the gateway would), so both apply one rule. Problems never quote the secret.

export const TOKEN_SIGNATURE_ALGORITHMS = ['MasherySHA256', 'MasheryMD5'] as const;
export type TokenSignatureAlgorithm = (typeof TOKEN_SIGNATURE_ALGORITHMS)[number];

export interface TokenSignatureSettings {
  algorithm: TokenSignatureAlgorithm;
  /** Header carrying the signature; `paramName` also reads it from the query. */
  header: string;
  paramName?: string;
  secret: string;
  /** Seconds either side of now a signature is accepted for (default 0: this second only). */
  allowedClockSkew: number;
  /** Default 401. */
  errorCode: number;
  /** Default `Request signature verification failed`. */
  errorMessage: string;
}

export interface RawTokenSignature {
  algorithm?: unknown;
  header?: unknown;
  use_param?: unknown;
  param_name?: unknown;
  secret?: unknown;
  allowed_clock_skew?: unknown;
  error_code?: unknown;
  error_message?: unknown;
}

/** `subfield` names the field under `signature` a problem is about; `problem` completes "<field> ...". */
export type TokenSignatureResult = { ok: true; settings: TokenSignatureSettings } | { ok: false; subfield: string; problem: string };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) ? value : 0);

export function parseTokenSignature(signature: RawTokenSignature | undefined): TokenSignatureResult {
  const algorithm = text(signature?.algorithm);
  if (!(TOKEN_SIGNATURE_ALGORITHMS as readonly string[]).includes(algorithm)) {
    return { ok: false, subfield: 'algorithm', problem: `must be one of ${TOKEN_SIGNATURE_ALGORITHMS.join(', ')}: ${algorithm || '(empty)'}` };
  }
  const header = text(signature?.header);
  if (!header) return { ok: false, subfield: 'header', problem: 'is required when validate_signature is set: the header carrying the signature' };
  const secret = text(signature?.secret);
  if (!secret) return { ok: false, subfield: 'secret', problem: 'is required when validate_signature is set: the secret signatures are made with' };
  const errorCode = count(signature?.error_code) || 401;
  if (errorCode < 400 || errorCode > 599) return { ok: false, subfield: 'error_code', problem: `must be an HTTP error status (400-599): ${errorCode}` };
  const paramName = signature?.use_param === true ? text(signature.param_name) || header : undefined;
  return {
    ok: true,
    settings: {
      algorithm: algorithm as TokenSignatureAlgorithm,
      header,
      ...(paramName ? { paramName } : {}),
      secret,
      allowedClockSkew: Math.max(0, count(signature?.allowed_clock_skew)),
      errorCode,
      errorMessage: text(signature?.error_message) || 'Request signature verification failed',
    },
  };
}
