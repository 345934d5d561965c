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
        // home page's first load become 18). Not above 2 KB: Rollup also
        // merges side-effect-free code into chunks more pages load, and at
        // 2.5 KB a small change elsewhere (useHydrated's, 2026-11-29) put
        // the shortlist's items.ts, loaded on demand, into a chunk every
        // page loads (make test-budgets checks it).
        experimentalMinChunkSize: 2_000,
      },
    },
  },
});
