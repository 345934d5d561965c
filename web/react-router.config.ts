import type { Config } from "@react-router/dev/config";

// Every page is prerendered to HTML; there is no runtime rendering server.
// The Go server (bin/studio) serves these files.
//
// `react-router build` (npm run bundle) makes the code only: the client
// bundle and the server bundle, the same for any content, as no module
// imports content/ (the loaders read it: app/lib/content.server.ts). It
// keeps the server bundle (ssr: true, prerender: false), and
// scripts/prerender.mjs renders every page of the content with it, as
// React Router's own prerender does with ssr: false, writing what that
// writes. So a text change renders the pages again and bundles nothing.
export default {
  ssr: true,
  prerender: false,
  // What ssr: false implies, so the server bundle says it as it is used.
  routeDiscovery: { mode: "initial" },
} satisfies Config;
