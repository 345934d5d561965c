import { test as base, expect } from "@playwright/test";
import { hydrated } from "./fixtures";

// Plain Playwright test: this one provokes a violation on purpose, which the
// shared fixture would count as a failure.
base("the CSP lets the page run and blocks an injected inline script", async ({ page }) => {
  const response = await page.goto("/products");
  const csp = response!.headers()["content-security-policy"]!;
  expect(csp).toContain("script-src 'self' 'sha256-");
  expect(csp).not.toContain("unsafe-inline");
  await hydrated(page); // React Router's own inline scripts ran

  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; directive: string }>((resolve) => {
        document.addEventListener("securitypolicyviolation", (e) => resolve({ ran: "__injected" in window, directive: e.violatedDirective }), {
          once: true,
        });
        const script = document.createElement("script");
        script.textContent = "window.__injected = true";
        document.body.appendChild(script);
      }),
  );
  expect(outcome).toEqual({ ran: false, directive: "script-src-elem" });
});
