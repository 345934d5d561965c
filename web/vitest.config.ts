import { defineConfig } from "vitest/config";

// Unit tests of the front end's logic; the browser tests live in e2e/.
export default defineConfig({
  test: {
    include: ["app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // Generous deadlines, for a machine busy with other work: a test checks
    // what happens, not how fast. The default is 5 s a test, 10 s a hook.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
