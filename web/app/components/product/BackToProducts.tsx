import { Link, useLocation, useNavigate } from "react-router";
import { listAddress, stepsBackToList } from "../../lib/backToList";
import { useHydrated } from "../../lib/useHydrated";
import { Icon } from "../Icon";

// Back to Products: a link to the list the visitor came from (its filters
// and page), or the whole list. Where that list is behind this page in the
// tab's history, a click goes back to it, as the browser's Back does: the
// list comes back where it was scrolled to, and no entry is added for Back
// to step through. Without the script, and for a click that opens a new
// tab, it is the plain link.
export function BackToProducts() {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const to = hydrated ? listAddress(location.state, "/products") : "/products";
  const back = (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const steps = stepsBackToList(location.state, window.history.state?.idx);
    if (steps === null) return;
    event.preventDefault();
    void navigate(steps);
  };
  return (
    <Link to={to} className="product-page__back" onClick={back}>
      <Icon name="arrowLeft" size={20} />
      Back to Products
    </Link>
  );
}
