// What may be an API id in the hub's catalogue: the characters the gateway allows in api_id (usable in a URL path
// and a file name), minus the words the hub's own routes use after /api/ (labels, apis, tokens), which could never
// be addressed as /api/{api-id}/labels.
import { HttpError } from '../http/errors.ts';

export const RESERVED_API_IDS: readonly string[] = ['labels', 'apis', 'tokens'];

export function checkApiId(id: string): string {
  if (!/^[A-Za-z0-9._~-]{1,128}$/.test(id)) throw new HttpError('invalid', `api id must be 1-128 characters of A-Z a-z 0-9 . _ ~ -`);
  if (RESERVED_API_IDS.includes(id)) throw new HttpError('invalid', `api id "${id}" is reserved by the governance API (${RESERVED_API_IDS.join(', ')})`);
  return id;
}
