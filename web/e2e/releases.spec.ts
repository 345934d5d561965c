import { test, expect, expectNoAxeViolations } from "./fixtures";

// The workspace's releases page. The test server has made no release of its
// own (its content is the embedded build's), so the embedded build is live.
// It runs in web/, where there is no builder unless BUILDER_DIR names one:
// then the page says how to add it instead of offering Publish now.

test("the releases page shows the live build, and Publish now or how to add the builder", async ({ page, openStudio }) => {
  await openStudio(page);
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Releases" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Releases" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Releases" })).toHaveAttribute("aria-current", "page");
  const embedded = page.getByRole("article", { name: "The site as built into bin/studio" });
  await expect(embedded.getByText("Live", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Make live/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish now" }).or(page.getByText("This server has no builder"))).toBeVisible();
  await expectNoAxeViolations(page);
});
