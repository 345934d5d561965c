import { Icon } from "../Icon";

type Props = {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
};

// Previous and next are disabled at the ends; the current page is marked
// with aria-current.
export function Pagination({ page, pageCount, onPage }: Props) {
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" className="pagination__step" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Icon name="chevronLeft" size={18} />
        Previous
      </button>
      <ol className="pagination__pages">
        {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
          <li key={n}>
            <button
              type="button"
              className="pagination__page"
              aria-label={`Page ${n}`}
              aria-current={n === page ? "page" : undefined}
              onClick={() => onPage(n)}
            >
              {n}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="pagination__step" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next
        <Icon name="chevronRight" size={18} />
      </button>
    </nav>
  );
}
