import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Every route of the site, in one place.
export default [
  index("routes/home.tsx"),
  // The list of products: /products, /products/page/2, /products/tables,
  // /products/tables/material/wood/finish/oak/page/2 (app/lib/filters.ts, listPath).
  route("products/*", "routes/products.tsx"),
  route("product/:id", "routes/product.tsx"),
  // A product's quote or customisation request without the dialog.
  route("product/:id/:kind", "routes/request.tsx"),
  // Where a form sent without JavaScript leads.
  route("thank-you/:form?", "routes/thank-you.tsx"),
  route("about", "routes/about.tsx"),
  route("bespoke", "routes/bespoke.tsx"),
  route("contact-us", "routes/contact-us.tsx"),
  route("shipping-policy", "routes/shipping-policy.tsx"),
  route("terms-conditions", "routes/terms-conditions.tsx"),
  route("returns", "routes/returns.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  // The pieces a visitor keeps for one quote, stored in the browser.
  route("shortlist", "routes/shortlist.tsx"),
  // Where the forms send, with their script (no page: an action only).
  route("send", "routes/send.ts"),
  // What the search overlay loads when it opens (a JSON file, no page).
  route("search-index.json", "routes/search-index.ts"),
  // What the chat panel loads with itself: its script (a JSON file, no page).
  route("chat.json", "routes/chat-script.ts"),
  // Any other path shows the home page (the server answers it with 404).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
