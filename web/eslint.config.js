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
    },
  },
  {
    files: ["**/*.mjs", "*.js"],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", Buffer: "readonly", Request: "readonly", sessionStorage: "readonly", document: "readonly", window: "readonly", performance: "readonly", MutationObserver: "readonly" } },
  },
);
