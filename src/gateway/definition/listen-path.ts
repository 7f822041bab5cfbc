// Listen paths, normalised the way the router looks them up: a leading '/', no trailing '/', no empty or dot
// segments (`/httpbin/` and `/httpbin` are the same API; `/` is the root). Only literal paths: a listen path
// cannot contain wildcards.
import { DefinitionError } from './api-spec.ts';

export function normalizeListenPath(value: string | undefined, field: string): string {
  if (!value) throw new DefinitionError(`${field} is required`);
  if (!value.startsWith('/')) throw new DefinitionError(`${field} must start with '/': ${value}`);
  if (/[{}?#%\\]/.test(value)) throw new DefinitionError(`${field} must be a literal path without {}, ?, #, % or \\: ${value}`);
  const segments = value.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw new DefinitionError(`${field} must not contain '.' or '..' segments: ${value}`);
  }
  return `/${segments.join('/')}`;
}
