// The query of GET /api/apis (and the paging of GET /api/labels/{id}/apis), parsed into a typed filter. Pure.
//   label=<name or key>:<value>   the API carries the label with exactly this value; repeat for AND
//   label=<name or key>           the API carries the label, any value
//   search=<text>                 some label value of the API contains the text (case-insensitive)
//   page=<n> (1-based, default 1), per_page=<n> (default 50, at most 500)
// A name containing ':' is filtered by its key (keys never contain one): the first ':' separates name and value.
import { HttpError } from '../http/errors.ts';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 500;

export interface LabelFilter {
  /** A label name or key, as given. */
  label: string;
  /** undefined: any value. */
  value?: string;
}

export interface Paging {
  page: number;
  perPage: number;
}

export interface ApiQuery extends Paging {
  filters: LabelFilter[];
  search?: string;
}

type Query = Record<string, string | string[] | undefined>;

export function parseApiQuery(query: Query): ApiQuery {
  const filters = all(query, 'label').map(parseLabelFilter);
  const search = single(query, 'search')?.trim();
  return { filters, ...(search ? { search } : {}), ...parsePaging(query) };
}

export function parseLabelFilter(text: string): LabelFilter {
  const colon = text.indexOf(':');
  const label = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (label === '') throw new HttpError('invalid', `label: "${text}" must be <label name or key>:<value> or <label name or key>`);
  if (colon < 0) return { label };
  const value = text.slice(colon + 1).trim();
  if (value === '') throw new HttpError('invalid', `label: "${text}" has no value after ':' (leave out the ':' to match any value)`);
  return { label, value };
}

export function parsePaging(query: Query): Paging {
  return { page: positive(query, 'page', 1, Number.MAX_SAFE_INTEGER), perPage: positive(query, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE) };
}

function positive(query: Query, name: string, fallback: number, max: number): number {
  const text = single(query, name);
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) throw new HttpError('invalid', `${name}: must be a whole number from 1 to ${max}`);
  return Number(text);
}

function all(query: Query, name: string): string[] {
  const value = query[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function single(query: Query, name: string): string | undefined {
  const values = all(query, name);
  if (values.length > 1) throw new HttpError('invalid', `${name}: given ${values.length} times, expected once`);
  return values[0];
}
