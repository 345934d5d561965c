import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { markdown } from "./scripts/markdown";

export default defineConfig({
  // content/*.md become HTML modules at build time (scripts/markdown.ts).
  plugins: [markdown({ contentDir: fileURLToPath(new URL("../content", import.meta.url)) }), reactRouter()],
  build: {
    // Inline nothing as data: URLs, so a strict CSP (img-src 'self') holds.
    assetsInlineLimit: 0,
  },
});
