// Previous and next page buttons under a paged list (APIs, keys, the audit log, the portal's lists), with "Page n of
// m" between them.
export interface PagerProps {
  /** What the pages are of, for the navigation's name ("Pages of developers"). */
  of: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

export function Pager({ of, page, pages, onPage }: PagerProps) {
  return (
    <nav class="pager" aria-label={`Pages of ${of}`}>
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" class="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
