import { Link } from "react-router";
import { SAME_PAGE, prefersReducedMotion } from "../../lib/usePageChange";
import { Icon } from "../Icon";

type Props = {
  page: number;
  pageCount: number;
  /** The address of the list at that page. */
  hrefOf: (page: number) => string;
};

// Links to each page of the list, so every product is reached by links
// alone. Previous and next are shown, not linked, at the ends; the current
// page is marked with aria-current. A page opens at the top of the list.
export function Pagination({ page, pageCount, hrefOf }: Props) {
  // After the click's navigation has begun: React Router saves this page's
  // scroll position for Back as it begins, and an instant scroll before
  // that would save the top.
  const scrollToTop = () => queueMicrotask(() => window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "instant" : "smooth" }));
  const step = (n: number, end: boolean, children: React.ReactNode) =>
    end ? (
      <a className="pagination__step" role="link" aria-disabled="true">
        {children}
      </a>
    ) : (
      <Link className="pagination__step" to={hrefOf(n)} state={SAME_PAGE} preventScrollReset onClick={scrollToTop}>
        {children}
      </Link>
    );
  return (
    <nav className="pagination" aria-label="Pages">
      {step(
        page - 1,
        page <= 1,
        <>
          <Icon name="chevronLeft" size={18} />
          Previous
        </>,
      )}
      <ol className="pagination__pages">
        {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
          <li key={n}>
            <Link
              className="pagination__page"
              to={hrefOf(n)}
              state={SAME_PAGE}
              preventScrollReset
              onClick={scrollToTop}
              aria-label={`Page ${n}`}
              aria-current={n === page ? "page" : undefined}
            >
              {n}
            </Link>
          </li>
        ))}
      </ol>
      {step(
        page + 1,
        page >= pageCount,
        <>
          Next
          <Icon name="chevronRight" size={18} />
        </>,
      )}
    </nav>
  );
}
