// An organisation's domain (`cname`, Tyk Dashboard's field): the host its developer portal answers on
// (portal-site/site.ts) and the origin of the links in its portal e-mails (https://<cname>/…). It must be a domain
// name and nothing more — letters, digits and hyphens in dot-separated labels of 1 to 63, at most 253 characters, no
// scheme, port, path or user — or a link in a password-reset mail could point anywhere. Stored lowercase: the portal
// matches a request's host without case, so two organisations differing only in case would share one domain.
import { HttpError } from '../http.ts';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The cname as stored ('' for none), or a 400 naming the field. */
export function normalizeCname(value: string): string {
  const cname = value.trim().toLowerCase();
  if (cname === '') return '';
  if (cname.length > 253 || !cname.split('.').every((label) => LABEL.test(label))) {
    throw new HttpError('invalid', 'cname: must be a domain name such as developers.example.com (no scheme, port or path)');
  }
  return cname;
}
