// auth_configs.authToken.signature -> TokenSignatureSpec, validated at load by the rule shared with the admission
// webhook (api/token-signature.ts): an unknown algorithm, or a check without header or secret, is refused naming
// the field (Tyk answers such requests 500 or 401 at request time; here it is a definition error).
import { parseTokenSignature, type RawTokenSignature } from '../../domain/token-signature.ts';
import { DefinitionError, type TokenSignatureSpec } from './api-spec.ts';

/** `at`: the path of the signature object; `names`: how the document spells a subfield, when not as Classic does. */
export function loadTokenSignature(signature: RawTokenSignature | undefined, at: string, names: Partial<Record<string, string>> = {}): TokenSignatureSpec {
  const result = parseTokenSignature(signature);
  if (!result.ok) throw new DefinitionError(`${at}.${names[result.subfield] ?? result.subfield} ${result.problem}`);
  return result.settings;
}
