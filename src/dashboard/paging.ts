// Pages of list endpoints: ?p=<n> selects page n (from 1; absent or 0 is the first), a negative p (the operator
// sends -2) selects everything on one page. `pages` in an answer is the number of pages at page_size (1 when
// everything was asked for, 0 for an empty list). `p` is checked at the edge for every route (PageParameter, in
// app.ts): a page past MAX_PAGE is a 400, never an OFFSET PostgreSQL cannot hold.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { query } from './http.ts';

/** The highest page number accepted (PostgreSQL's OFFSET is a bigint; this keeps page x page_size far below). */
export const MAX_PAGE = 1_000_000_000;

export const PageParameter = z.string().refine((raw) => raw === '' || (/^-?\d{1,10}$/.test(raw) && Math.abs(Number(raw)) <= MAX_PAGE), {
  message: `must be an integer page number from 1 to ${MAX_PAGE} (or -2 for every item)`,
});

export interface Page {
  /** undefined: everything. */
  limit: number | undefined;
  offset: number;
}

/** The page `p` asks for (already checked at the edge). */
export function pageOf(request: FastifyRequest, pageSize: number): Page {
  const raw = query(request, 'p');
  if (raw === undefined || raw === '') return { limit: pageSize, offset: 0 };
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
