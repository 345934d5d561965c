import { Link } from "react-router";

/** The shortlist with no pieces: what it is for. It takes the focus when the last piece is taken out (#shortlist-empty). */
export function EmptyShortlist() {
  return (
    <div className="shortlist__empty" id="shortlist-empty" tabIndex={-1}>
      <h2>Nothing here yet</h2>
      <p>Press “Add to shortlist” on any piece you like, then come back here to ask for one quote for them all.</p>
      <Link to="/products" className="button">
        Browse the products
      </Link>
    </div>
  );
}
