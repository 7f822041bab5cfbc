// Pages of list endpoints: ?p=<n> selects page n (from 1; absent or 0 is the first), a negative p (the operator
// sends -2) selects everything on one page. `pages` in an answer is the number of pages at page_size (1 when
// everything was asked for, 0 for an empty list).
import type { FastifyRequest } from 'fastify';
import { DashboardError, query } from './http.ts';

export interface Page {
  /** undefined: everything. */
  limit: number | undefined;
  offset: number;
}

export function pageOf(request: FastifyRequest, pageSize: number): Page {
  const raw = query(request, 'p');
  if (raw === undefined || raw === '') return { limit: pageSize, offset: 0 };
  if (!/^-?\d+$/.test(raw)) throw new DashboardError(400, `p must be an integer page number (or -2 for every item): ${JSON.stringify(raw).slice(0, 40)}`);
  const page = Number(raw);
  if (page < 0) return { limit: undefined, offset: 0 };
  return { limit: pageSize, offset: (Math.max(page, 1) - 1) * pageSize };
}

export function pagesOf(total: number, page: Page): number {
  return page.limit === undefined ? 1 : Math.ceil(total / page.limit);
}

/** ` LIMIT $n OFFSET $m` for a query whose parameters so far are `params` (appends to it). */
export function limitClause(page: Page, params: unknown[]): string {
  if (page.limit === undefined) return '';
  params.push(page.limit, page.offset);
  return ` LIMIT $${params.length - 1} OFFSET $${params.length}`;
}
