import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  build: {
    // Inline nothing as data: URLs, so a strict CSP (img-src 'self') holds.
    assetsInlineLimit: 0,
  },
});
