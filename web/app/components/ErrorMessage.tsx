import { isRouteErrorResponse } from "react-router";

// What a page that could not be shown says (any error but a not-found
// page's): the root's, and the product page's own boundary's.
export function ErrorMessage({ error }: { error: unknown }) {
  const heading = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <div className="page-intro">
      <h1>{heading}</h1>
      <p>
        Sorry, this page could not be shown. Try the <a href="/">home page</a> or <a href="/products">all products</a>.
      </p>
    </div>
  );
}
