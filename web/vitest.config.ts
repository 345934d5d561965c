import { defineConfig } from "vitest/config";

// Unit tests of the front end's logic; the browser tests live in e2e/.
export default defineConfig({
  test: {
    include: ["app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
  },
});
