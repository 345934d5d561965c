// ESLint, run by `make lint`: the recommended rules for TypeScript, and
// React's rules of hooks (a missing effect dependency is an error).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", ".generated/", "node_modules/", "test-results/", "*.tmp.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      // "_" names what is left out on purpose, as do the siblings of a rest.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // The React app (the browser tests' fixtures also call a `use`, Playwright's).
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // The build scripts may import the app, never the reverse: what the
      // app needs at prerender time is app code (app/lib/*.server.ts).
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/scripts/*"], message: "The app never imports web/scripts/: move what it needs into app/lib/." }] }],
    },
  },
  {
    files: ["**/*.mjs", "*.js"],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", Buffer: "readonly", Request: "readonly", sessionStorage: "readonly", document: "readonly", window: "readonly", performance: "readonly", MutationObserver: "readonly" } },
  },
);
