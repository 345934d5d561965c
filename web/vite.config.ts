import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  build: {
    // Inline nothing as data: URLs, so a strict CSP (img-src 'self') holds.
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        // A slow phone pays a round trip for each file it waits on; on a
        // connection without HTTP/2 only six at a time. The small shared
        // chunks are merged into others, where Rollup finds that no page
        // then loads code it would not have loaded anyway (24 files on the
        // home page's first load become 17). Not above the size of the
        // shortlist's items.ts (2.8 KB): a chunk loaded on demand would be
        // merged into one every page loads, and be on demand no more
        // (make test-budgets checks it).
        experimentalMinChunkSize: 2_500,
      },
    },
  },
});
